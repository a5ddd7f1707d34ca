import type { ErrorDetail } from '../errors.js';
import type { Fields } from './fields.js';

/**
 * A rule over a whole record that depends on another field's value: written once, it is both the
 * check the service runs (on create, and on update against the record as it stands after the
 * patch) and the `if`/`then` of the create body's JSON Schema in the document.
 */
export interface ConditionalRule<F extends Fields = Fields> {
  /** When this field holds this value… */
  when: { field: keyof F & string; equals: string | boolean };
  /** …these fields need a value… */
  require?: readonly (keyof F & string)[];
  /** …this number field is at most `value`… */
  maximum?: { field: keyof F & string; value: number; message: string };
  /** …and this field is one of `values`. */
  oneOf?: { field: keyof F & string; values: readonly string[]; message: string };
}

/** What a record breaks of the rules. */
export function checkRules(rules: readonly ConditionalRule[], record: Record<string, unknown>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const rule of rules) {
    const { field: condition, equals } = rule.when;
    if (record[condition] !== equals) continue;
    for (const field of rule.require ?? []) {
      if (record[field] == null)
        details.push({ field, code: 'required', message: `Required when ${condition} is ${JSON.stringify(equals)}.` });
    }
    const max = rule.maximum;
    if (max) {
      const value = record[max.field];
      if (typeof value === 'number' && value > max.value) details.push({ field: max.field, code: 'too_large', message: max.message });
    }
    const choice = rule.oneOf;
    if (choice) {
      const value = record[choice.field];
      if (typeof value === 'string' && !choice.values.includes(value))
        details.push({ field: choice.field, code: 'invalid', message: choice.message });
    }
  }
  return details;
}

/** The rules as JSON Schema `if`/`then` clauses of a create body; a required field's `then` repeats its schema. */
export function ruleSchemas(rules: readonly ConditionalRule[], schemaOf: (field: string) => unknown): Record<string, unknown>[] {
  return rules.map((rule) => {
    const then: { required?: string[]; properties: Record<string, unknown> } = { properties: {} };
    if (rule.require?.length) {
      then.required = [...rule.require];
      for (const field of rule.require) then.properties[field] = schemaOf(field);
    }
    if (rule.maximum) then.properties[rule.maximum.field] = { maximum: rule.maximum.value };
    if (rule.oneOf) then.properties[rule.oneOf.field] = { enum: [...rule.oneOf.values] };
    return {
      if: { properties: { [rule.when.field]: { const: rule.when.equals } }, required: [rule.when.field] },
      then,
    };
  });
}
