import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../app/i18n/bundles.server';
import { fieldsOf, inFormWords, localize, referencedSlug, referencedSlugs, toBody, toInput } from '../app/admin/form-fields';

// A slice of the core's MissionCreate schema, in the shape its OpenAPI document gives.
const mission = {
  type: 'object',
  required: ['name', 'tasks'],
  properties: {
    name: { type: 'string', maxLength: 10 },
    status: { type: 'string', enum: ['draft', 'live', 'paused'], default: 'live' },
    rewardId: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }], 'x-references': 'reward' },
    aggregationTargetValue: { type: 'number', exclusiveMinimum: 0 },
    completionTargetValue: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
    eventCodes: { type: 'array', items: { $ref: '#/components/schemas/EventCode' } },
    tasks: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['activityId', 'targetValue'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          activityId: { type: 'string', minLength: 1 },
          targetValue: { type: 'number', exclusiveMinimum: 0 },
        },
      },
    },
  },
};

describe('forms from the core schema', () => {
  // In English, as the record pages read them (record-pages.server).
  const fields = localize(fieldsOf(mission), ADMIN_MESSAGES.en);
  const byName = Object.fromEntries(fields.map((f) => [f.name, f]));

  it('derives kinds and rules', () => {
    expect(byName.name).toMatchObject({ kind: 'text', required: true, maxLength: 10 });
    expect(byName.status).toMatchObject({ kind: 'select', options: ['draft', 'live', 'paused'], defaultValue: 'live' });
    expect(byName.rewardId).toMatchObject({ kind: 'text', nullable: true, required: false, references: 'reward' });
    expect(byName.completionTargetValue).toMatchObject({ kind: 'number', integer: true, min: 1 });
    expect(byName.eventCodes!.kind).toBe('list');
    expect(byName.tasks).toMatchObject({ kind: 'rows', minItems: 1 });
  });

  it('words the button that adds a row in each language, not from the English label', () => {
    const adds = Object.fromEntries(
      Object.entries(ADMIN_MESSAGES).map(([language, messages]) => [
        language,
        localize(fieldsOf(mission), messages).find((f) => f.name === 'tasks')!.addLabel,
      ]),
    );
    expect(adds).toMatchObject({ en: 'Add a task', de: 'Aufgabe hinzufügen', fr: 'Ajouter une tâche', ja: 'タスクを追加' });
  });

  it('offers a list whose items are values of an enum (a webhook’s events, resolved in place) as a choice of those values', () => {
    const codes = ['streak_progress_completed', 'tier_changed'];
    const [events] = fieldsOf({ properties: { eventCodes: { type: 'array', items: { type: 'string', enum: codes } } } });
    expect(events).toMatchObject({ kind: 'list', options: codes });
    expect(byName.eventCodes!.options).toBeUndefined();
    expect(toInput(events!, codes)).toBe(codes.join('\n'));
    expect(toBody([events!], { eventCodes: codes.join('\n') }, 'create', ADMIN_MESSAGES.en).body).toEqual({
      eventCodes: codes,
    });
  });

  it('checks as the core does and names each failing field', () => {
    const { errors } = toBody(
      fields,
      {
        name: 'far too long a name',
        rewardId: 'nope',
        aggregationTargetValue: '0',
        completionTargetValue: '1.5',
        tasks: JSON.stringify([{ activityId: '', targetValue: '2' }]),
      },
      'create',
      ADMIN_MESSAGES.en,
    );
    expect(errors).toEqual({
      name: 'Name must be at most 10 characters.',
      rewardId: 'Reward must be an id (UUID).',
      aggregationTargetValue: 'Goal each period must be greater than 0.',
      completionTargetValue: 'Goal to complete must be a whole number.',
      'tasks.0.activityId': 'Activity ID is required.',
    });
  });

  it("checks in the admin's language, with the admin's own wording of a field there and derived labels kept", () => {
    const german = localize(
      fieldsOf({
        properties: { ...mission.properties, maxFreezes: { type: 'integer', minimum: 0 }, maxTasks: { type: 'integer', maximum: 1000000 } },
        required: mission.required,
      }),
      ADMIN_MESSAGES.de,
    );
    const { errors } = toBody(
      german,
      { name: '', maxFreezes: '-1', maxTasks: '2000000', tasks: JSON.stringify([{ activityId: '', targetValue: '2' }]) },
      'create',
      ADMIN_MESSAGES.de,
    );
    expect(errors).toEqual({
      name: 'Name ist erforderlich.',
      maxFreezes: 'Serien-Joker pro Mitglied muss mindestens 0 sein.',
      // A bound as German writes numbers.
      maxTasks: 'Max Tasks darf höchstens 1.000.000 sein.',
      'tasks.0.activityId': 'Activity ID ist erforderlich.',
    });
  });

  it('builds the body: blanks left out on create and cleared on update, lists split, rows parsed', () => {
    const inputs = {
      name: 'Welcome',
      rewardId: '',
      eventCodes: 'a\n\n b ',
      tasks: toInput(byName.tasks!, [{ id: '0b7c6f1e-2a1d-4c3b-9d8e-7f6a5b4c3d2e', activityId: 'buy', targetValue: 1 }]),
    };
    expect(toBody(fields, inputs, 'create', ADMIN_MESSAGES.en)).toEqual({
      body: {
        name: 'Welcome',
        eventCodes: ['a', 'b'],
        tasks: [{ id: '0b7c6f1e-2a1d-4c3b-9d8e-7f6a5b4c3d2e', activityId: 'buy', targetValue: 1 }],
      },
      errors: {},
    });
    expect(toBody(fields, { rewardId: '' }, 'update', ADMIN_MESSAGES.en).body).toEqual({ rewardId: null });
  });
  it('knows which records an id field picks from, also when another field decides', () => {
    const rule = fieldsOf({
      type: 'object',
      properties: {
        integrationProvider: { type: 'string', enum: ['service_email', 'cloud_sms'] },
        templateId: {
          type: 'string',
          format: 'uuid',
          'x-references-by': { field: 'integrationProvider', slugs: { service_email: 'email_template', cloud_sms: 'sms_template' } },
        },
      },
    });
    const template = rule.find((f) => f.name === 'templateId')!;
    expect(referencedSlugs([...rule, byName.rewardId!])).toEqual(['email_template', 'sms_template', 'reward']);
    expect(referencedSlug(template, { integrationProvider: 'cloud_sms' })).toBe('sms_template');
    expect(referencedSlug(template, { integrationProvider: '' })).toBeUndefined();
    expect(referencedSlug(byName.rewardId!, {})).toBe('reward');
  });
});

describe("the core's refusal on a generic form", () => {
  const fields = localize(fieldsOf(mission), ADMIN_MESSAGES.de);
  const refusal = (details: { field: string; code: string; message: string }[]) =>
    inFormWords(
      { status: 400, message: 'The body has invalid fields.', fieldErrors: {}, code: 'invalid_input', details },
      fields,
      ADMIN_MESSAGES.de,
    );

  it("says a code it has words for in the admin's language, on the field an item of it belongs to", () => {
    const said = refusal([
      { field: 'eventCodes[1]', code: 'duplicate', message: '"reward_log_issued" is listed twice.' },
      { field: 'aggregationTargetValue', code: 'too_small', message: 'Must be greater than 0.' },
    ]);
    expect(said.fieldErrors).toEqual({
      eventCodes: 'Schon vergeben: Ereignisse. Wähle etwas anderes.',
      aggregationTargetValue: 'Ziel je Zeitraum muss mindestens 0 sein.',
    });
    expect(said.message).toBe(ADMIN_MESSAGES.de.records.form.refused);
  });

  it('keeps the core’s message, its API names in the form’s labels, for a code it has no words for', () => {
    expect(
      refusal([
        { field: 'completionTargetValue', code: 'unreachable', message: 'Must be at most 7, the completionTargetValue of the streak.' },
      ]).fieldErrors,
    ).toEqual({
      completionTargetValue: 'Must be at most 7, the "Ziel zum Abschluss" of the streak.',
    });
  });
});
