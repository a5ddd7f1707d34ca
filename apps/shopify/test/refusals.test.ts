import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { refusalInWords } from '../app/admin/refusals';
import { tierLabels, tierRefusal } from '../app/admin/tier-words';
import { coreFailure } from '../app/core/failure';
import { ADMIN_MESSAGES } from '../app/i18n/bundles.server';
import { type Stack, startStack, TEST_SHOP } from './support/stack';

/**
 * Every refusal the core sends for the leaderboard, notification rule, email template, branding and
 * tier forms, provoked on the real core, in the merchant's words on the field it concerns, in English
 * and German; and every code the mapping words is one of them.
 */
let stack: Stack;
let api: Client;
let streakId: string;
let mailId: string;
let pausedLetterId: string;
const RANDOM_ID = '0b7c2f9e-6a51-4c1e-9d0e-5a4b3c2d1e0f';

const created = async (path: string, body: Record<string, unknown>) => {
  const res = await api.request('POST', path, { body, validate: false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id as string;
};

beforeAll(async () => {
  stack = await startStack();
  await stack.install();
  const account = (await stack.app.shops.find(TEST_SHOP))!;
  api = stack.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  streakId = await created('/schema/streak/record', { name: 'Daily visit', status: 'live' });
  mailId = await created('/schema/service_email/record', { name: 'Shop mail', replyToEmailAddress: 'help@shop.test', status: 'live' });
  pausedLetterId = await created('/schema/email_template/record', {
    name: 'Paused mail',
    status: 'paused',
    sampleEventCode: 'streak_progress_completed',
    subject: 'Done',
    htmlContent: '<p>Done</p>',
  });
}, 120_000);

afterAll(() => stack?.close());

const board = () => ({ name: 'Board', linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId });
const letter = () => ({
  name: 'Letter',
  status: 'live',
  sampleEventCode: 'streak_progress_completed',
  subject: 'Hi',
  htmlContent: '<p>Hi</p>',
});
const rule = () => ({
  name: 'Rule',
  status: 'draft',
  eventCodes: ['streak_progress_completed'],
  integrationProvider: 'service_email',
  integrationId: mailId,
  templateId: pausedLetterId,
});

const tier = () => ({ name: 'Gold', status: 'live', pointsThreshold: 500, earnMultiplier: 1.5 });

/** What the tier editor sends wrong, the core's code and field, and the editor's field it shows on. */
const TIER_CASES: { change: Record<string, unknown>; code: string; field: string; on: string; said?: string }[] = [
  { change: { name: undefined }, code: 'required', field: 'name', on: 'name' },
  { change: { pointsThreshold: undefined }, code: 'required', field: 'pointsThreshold', on: 'threshold' },
  { change: { eudTitle: 'x'.repeat(60) }, code: 'too_long', field: 'eudTitle', on: 'name' },
  { change: { pointsThreshold: -1 }, code: 'too_small', field: 'pointsThreshold', on: 'threshold' },
  { change: { pointsThreshold: 2_000_000_000 }, code: 'too_large', field: 'pointsThreshold', on: 'threshold' },
  // "Expected int.": said as a whole number wanted, not as a value of the wrong kind.
  { change: { pointsThreshold: 2.5 }, code: 'invalid_type', field: 'pointsThreshold', on: 'threshold', said: 'whole' },
  { change: { earnMultiplier: 0.5 }, code: 'too_small', field: 'earnMultiplier', on: 'multiplier' },
  { change: { earnMultiplier: 11 }, code: 'too_large', field: 'earnMultiplier', on: 'multiplier' },
  { change: { earnMultiplier: 1.25 }, code: 'invalid', field: 'earnMultiplier', on: 'multiplier' },
  { change: { status: 'archived' }, code: 'invalid_enum', field: 'status', on: 'status' },
  { change: { entryRewardId: RANDOM_ID }, code: 'not_found', field: 'entryRewardId', on: 'entryReward' },
  { change: { entryRewardId: 'gold' }, code: 'invalid_format', field: 'entryRewardId', on: 'entryReward' },
  { change: { eudDescription: 'x'.repeat(2000) }, code: 'too_long', field: 'eudDescription', on: 'description' },
];

/** A body the core refuses, the code it answers with, and the form field that code belongs on (null: the form has none). */
const CASES: { slug: string; body: () => Record<string, unknown>; code: string; field: string | null; said?: string }[] = [
  { slug: 'leaderboard', body: () => ({ ...board(), name: undefined }), code: 'required', field: 'name' },
  { slug: 'leaderboard', body: () => ({ ...board(), name: 'x'.repeat(300) }), code: 'too_long', field: 'name' },
  { slug: 'leaderboard', body: () => ({ ...board(), size: 500 }), code: 'too_large', field: 'size' },
  { slug: 'leaderboard', body: () => ({ ...board(), size: 0 }), code: 'too_small', field: 'size' },
  { slug: 'leaderboard', body: () => ({ ...board(), size: 'ten' }), code: 'invalid_type', field: 'size' },
  { slug: 'leaderboard', body: () => ({ ...board(), displayName: 'nickname' }), code: 'invalid_enum', field: 'displayName' },
  { slug: 'leaderboard', body: () => ({ ...board(), rankBy: 'window_progress' }), code: 'invalid', field: 'rankBy' },
  { slug: 'leaderboard', body: () => ({ ...board(), rankBy: null }), code: 'not_nullable', field: 'rankBy' },
  { slug: 'leaderboard', body: () => ({ ...board(), linkedSchemaRecordId: RANDOM_ID }), code: 'not_found', field: 'linkedSchemaRecordId' },
  {
    slug: 'leaderboard',
    body: () => ({ ...board(), linkedSchemaRecordId: 'visits' }),
    code: 'invalid_format',
    field: 'linkedSchemaRecordId',
  },
  { slug: 'leaderboard', body: () => ({ ...board(), colour: 'red' }), code: 'unknown_field', field: null },
  { slug: 'leaderboard', body: () => ({ ...board(), id: RANDOM_ID }), code: 'read_only', field: null },
  { slug: 'email_template', body: () => ({ ...letter(), subject: '' }), code: 'too_short', field: 'subject' },
  { slug: 'email_template', body: () => ({ ...letter(), htmlContent: '<p>{{#if x}}</p>' }), code: 'template_syntax', field: 'htmlContent' },
  { slug: 'email_template', body: () => ({ ...letter(), htmlContent: '{{shout x}}' }), code: 'unknown_helper', field: 'htmlContent' },
  { slug: 'email_template', body: () => ({ ...letter(), htmlContent: '{{#if}}x{{/if}}' }), code: 'helper_usage', field: 'htmlContent' },
  { slug: 'email_template', body: () => ({ ...letter(), htmlContent: '{{>signature}}' }), code: 'unknown_partial', field: 'htmlContent' },
  { slug: 'notification', body: () => ({ ...rule(), eventCodes: [] }), code: 'too_few', field: 'eventCodes' },
  {
    slug: 'notification',
    body: () => ({ ...rule(), eventCodes: ['streak_progress_completed', 'streak_progress_completed'] }),
    code: 'duplicate',
    field: 'eventCodes.1',
  },
  { slug: 'notification', body: () => ({ ...rule(), status: 'live' }), code: 'not_live', field: 'templateId' },
  { slug: 'theme', body: () => ({ name: 'Theme', fontFamily: 'Arial; color: red' }), code: 'invalid_format', field: 'fontFamily' },
  { slug: 'theme', body: () => ({ name: 'Theme', primaryColor: 'red' }), code: 'invalid', field: 'primaryColor' },
  { slug: 'template', body: () => ({ name: 'Texts', signUpUrl: 'javascript:alert(1)' }), code: 'invalid', field: 'signUpUrl' },
  ...TIER_CASES.map((c) => ({ slug: 'tier', body: () => ({ ...tier(), ...c.change }), code: c.code, field: c.field, said: c.said })),
];

/** The fallbacks: a code the admin has no sentence for, a 409 without details, a refusal with none on a field, an outage. */
const FALLBACKS = ['unknown', 'conflict', 'general', 'fields', 'outage'];

describe("the core's refusals in the merchant's words", () => {
  const seen = new Set<string>();

  for (const c of CASES)
    it(`${c.slug}: ${c.code}${c.field ? ` on ${c.field}` : ''}`, async () => {
      const res = await api.request('POST', `/schema/${c.slug}/record`, { body: c.body(), validate: false });
      expect(res.status).toBeGreaterThanOrEqual(400);
      const failure = coreFailure(res.status, res.body);
      const detail = failure.details?.find((d) => d.code === c.code);
      expect(detail, JSON.stringify(res.body)).toBeDefined();
      expect(detail!.field?.replace(/\[(\d+)\]/g, '.$1') ?? null).toBe(c.field ?? detail!.field ?? null);
      seen.add(c.said ?? c.code);
      for (const language of ['en', 'de'] as const) {
        const words = ADMIN_MESSAGES[language].editors.refusals;
        const label = '«The field»';
        const labels = c.field ? { [c.field]: label } : {};
        const refusal = refusalInWords({ ...failure, details: [detail!] }, words, language, labels);
        const text = c.field ? refusal.fieldErrors[c.field] : refusal.message;
        const code = (c.said ?? c.code) as keyof typeof words;
        expect(Object.hasOwn(words, code), `${language} has words for ${c.code}`).toBe(true);
        // The sentence for this code, with the field's label, the bounds and the line and column the core named.
        const pattern = words[code]
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\{(label|max|min|line|column)\}/g, (_, name) => (name === 'label' ? label : '[\\d.,]+'));
        expect(text, `${language}: ${JSON.stringify(refusal)}`).toMatch(new RegExp(`^${pattern}$`));
        // No API word reaches the merchant.
        expect(text).not.toMatch(/[a-z]+[A-Z]\w*|_[a-z]/);
        // The banner above a refusal on a field points at it, not at the service.
        if (c.field) expect(refusal.message).toBe(words.fields);
      }
    });

  it('says an outage (a core that did not answer, 5xx or 429) as one, never as a refusal of the changes', () => {
    for (const language of ['en', 'de'] as const) {
      const words = ADMIN_MESSAGES[language].editors.refusals;
      for (const [status, code] of [
        [503, 'unavailable'],
        [500, 'internal'],
        [429, 'rate_limited'],
      ] as const) {
        const refusal = refusalInWords(
          coreFailure(status, { error: { status, code, message: 'English', details: [], requestId: 'r' } }),
          words,
          language,
          {},
        );
        expect(refusal).toEqual({ message: words.outage, fieldErrors: {} });
      }
      const refused = refusalInWords(
        coreFailure(409, { error: { status: 409, code: 'conflict', message: 'English', details: [], requestId: 'r' } }),
        words,
        language,
        {},
      );
      expect(refused.message).toBe(words.conflict);
    }
  });

  it('words exactly the codes the core sends for these forms, plus the fallbacks', () => {
    for (const language of ['en', 'de'] as const)
      expect(Object.keys(ADMIN_MESSAGES[language].editors.refusals).sort()).toEqual([...seen, ...FALLBACKS].sort());
  });
});

describe("a tier's refusals on the tier editor's fields", () => {
  for (const c of TIER_CASES)
    it(`${c.code} on ${c.field} shows on ${c.on}`, async () => {
      const res = await api.request('POST', '/schema/tier/record', { body: { ...tier(), ...c.change }, validate: false });
      const failure = coreFailure(res.status, res.body);
      const detail = failure.details?.find((d) => d.code === c.code && d.field === c.field);
      expect(detail, JSON.stringify(res.body)).toBeDefined();
      for (const language of ['en', 'de'] as const) {
        const messages = ADMIN_MESSAGES[language];
        const points = language === 'de' ? 'Sterne' : 'stars';
        const refusal = tierRefusal({ ...failure, details: [detail!] }, messages, points);
        const sentence =
          c.code === 'invalid' ? messages.tiers.editor.multiplier.oneDecimal : messages.editors.refusals[(c.said ?? c.code) as 'required'];
        const pattern = sentence.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(label|max|min)\}/g, (_, name) =>
          // A bound as the language groups digits: 1,000,000,000 or 1.000.000.000.
          name === 'label'
            ? tierLabels(messages, points)[c.on as 'name']
            : language === 'de'
              ? '\\d{1,3}(?:\\.\\d{3})*'
              : '\\d{1,3}(?:,\\d{3})*',
        );
        expect(refusal.fieldErrors[c.on], `${language}: ${JSON.stringify(refusal)}`).toMatch(new RegExp(`^${pattern}$`));
        expect(refusal.fieldErrors[c.on]).not.toMatch(/[a-z]+[A-Z]\w*|_[a-z]/);
      }
    });
});
