import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRules, type ConditionalRule, ruleSchemas } from './rules.js';

const RULES: ConditionalRule[] = [
  { when: { field: 'kind', equals: 'percentage' }, maximum: { field: 'value', value: 100, message: 'at most 100' } },
  { when: { field: 'expiry', equals: 'relative' }, require: ['days'] },
  { when: { field: 'board', equals: 'streak' }, oneOf: { field: 'rank', values: ['current', 'longest'], message: 'a streak rank' } },
];
const SCHEMAS: Record<string, unknown> = { days: { type: 'number' } };

describe('conditional rules', () => {
  it('name each broken rule by its field', () => {
    expect(checkRules(RULES, { kind: 'percentage', value: 101, expiry: 'relative', board: 'streak', rank: 'window' })).toEqual([
      { field: 'value', code: 'too_large', message: 'at most 100' },
      { field: 'days', code: 'required', message: 'Required when expiry is "relative".' },
      { field: 'rank', code: 'invalid', message: 'a streak rank' },
    ]);
    expect(checkRules(RULES, { kind: 'fixed', value: 101, expiry: 'none', board: 'challenge', rank: 'window' })).toEqual([]);
  });

  it('accept exactly the records their JSON Schema accepts', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile({ allOf: ruleSchemas(RULES, (field) => SCHEMAS[field] ?? {}) });
    const record = fc.record(
      {
        kind: fc.constantFrom('percentage', 'fixed'),
        value: fc.integer({ min: 0, max: 200 }),
        expiry: fc.constantFrom('relative', 'none'),
        days: fc.integer({ min: 1, max: 30 }),
        board: fc.constantFrom('streak', 'challenge'),
        rank: fc.constantFrom('current', 'longest', 'window'),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(record, (r) => validate(r) === (checkRules(RULES, r).length === 0)));
  });
});
