import { DateTime } from 'luxon';
import { getJwt, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminLanguage } from '../app/i18n';
import { ADMIN_MESSAGES } from '../app/i18n/bundles.server';
import { blankMilestone, blankProgram, type ProgramDraft } from '../app/admin/program-draft';
import { loadProgram, saveProgram } from '../app/admin/program-save.server';
import { type AccountClient, accountClient, unreachableAsUnavailable } from '../app/core/client.server';
import { STUB_SHOP } from './support/admin-stub';
import { SHOPIFY, type Stack, startStack, TEST_SHOP } from './support/stack';

/**
 * The program editor's save against the real core: the order of its calls (so a change the core
 * would refuse midway goes through as a whole), and what comes back when part of it is refused.
 */
let stack: Stack;
let api: AccountClient;

beforeAll(async () => {
  stack = await startStack();
  await stack.install();
  api = accountClient(stack.core.url, (await stack.app.shops.find(TEST_SHOP))!);
});

afterAll(() => stack?.close());

const save = (draft: ProgramDraft, { through = api, language = 'en' as AdminLanguage } = {}) =>
  saveProgram(
    {
      api: through,
      discounts: stack.app.loop,
      rules: stack.app.earningRules,
      shop: TEST_SHOP,
      words: { ...ADMIN_MESSAGES[language].editor.checks, outage: ADMIN_MESSAGES[language].editors.refusals.outage },
      fieldWords: ADMIN_MESSAGES[language].rewards.editor.checks,
      language,
      timezone: async () => {
        zoneAsked++;
        return STUB_SHOP.ianaTimezone;
      },
    },
    draft,
  );
let zoneAsked = 0;

const countRecords = async (slug: 'reward' | 'streak' | 'challenge') =>
  (await api.GET(`/schema/${slug}/record` as '/schema/streak/record', { params: { query: { fetchTotalCount: true } } })).data!.paging
    .total!;

function streak(name: string, completion: string, targets: string[]): ProgramDraft {
  const draft = blankProgram('streak');
  draft.settings.name = name;
  draft.settings.completionTargetValue = completion;
  draft.milestones = targets.map((target, i) => ({ ...blankMilestone(`new-${i}`), name: `${target} days`, target }));
  return draft;
}

describe('saving a program', () => {
  it('with the core unreachable: the part says so in the merchant’s language, the rest is not tried, the input comes back', async () => {
    // Port 9 (discard) has no listener here: every call is refused at once, as a core that is down.
    const down = unreachableAsUnavailable(accountClient('http://127.0.0.1:9', (await stack.app.shops.find(TEST_SHOP))!));
    const draft = streak('While down', '5', ['5']);
    const outcome = await save(draft, { through: down, language: 'de' });
    expect(outcome.saved).toBeNull();
    expect(outcome.problems).toEqual([
      { scope: 'settings', message: 'Der Loyalty-Dienst hat nicht geantwortet. Versuche es in einer Minute noch einmal.' },
      { scope: 'milestones.new-0', message: ADMIN_MESSAGES.de.editor.checks.notTried },
    ]);
    expect(outcome.draft.settings.name).toBe('While down');
  });

  it('lowers the completion target and the milestone at it in one save (the milestone first)', async () => {
    const first = await save(streak('Lowered', '7', ['3', '7']));
    expect(first.problems).toEqual([]);
    const draft = structuredClone(first.draft);
    draft.settings.completionTargetValue = '5';
    draft.milestones[1]!.target = '5';
    const second = await save(draft);
    expect(second.problems).toEqual([]);
    expect(second.saved!.settings.completionTargetValue).toBe('5');
    expect(second.saved!.milestones.map((m) => m.target)).toEqual(['3', '5']);
  });

  it('raises the completion target and adds a milestone at the new target in one save (the definition first)', async () => {
    const first = await save(streak('Raised', '5', ['5']));
    const draft = structuredClone(first.draft);
    draft.settings.completionTargetValue = '10';
    draft.milestones.push({ ...blankMilestone('new-10'), name: 'Ten days', target: '10' });
    const second = await save(draft);
    expect(second.problems).toEqual([]);
    expect(second.saved!.milestones.map((m) => m.target)).toEqual(['5', '10']);
  });

  it('a new program the core refuses: its errors by field in the core words, nothing created for its milestones, the input back as sent', async () => {
    const rewardsBefore = await countRecords('reward');
    const challengesBefore = await countRecords('challenge');
    const draft = blankProgram('challenge');
    draft.settings.name = 'Spend';
    draft.settings.completionTargetValue = '0';
    draft.milestones = [
      {
        ...blankMilestone('new-1'),
        name: 'Half way',
        target: '50',
        reward: { mode: 'new', rewardId: '', draft: { ...blankMilestone('x').reward.draft, discountValue: '5' } },
      },
    ];
    const outcome = await save(draft);
    expect(outcome.saved).toBeNull();
    // The core's refusal in the merchant's words under the field, never its own English or field names.
    expect(outcome.errors['settings.completionTargetValue']).toBe('Enter more than 0.');
    expect(outcome.problems.map((p) => p.scope)).toEqual(['settings', 'milestones.new-1']);
    expect(outcome.problems[0]!.message).toBe('Check the fields marked below.');
    expect(outcome.draft).toEqual({ ...draft, id: null });
    expect(await countRecords('reward')).toBe(rewardsBefore);
    expect(await countRecords('challenge')).toBe(challengesBefore);
  });

  it('a milestone at a target another one has says so, in the merchant’s words', async () => {
    const first = await save(streak('Twice at three', '7', ['3']));
    expect(first.problems).toEqual([]);
    const draft = structuredClone(first.draft);
    draft.milestones.push({ ...blankMilestone('new-again'), name: 'Three again', target: '3' });
    const second = await save(draft);
    expect(second.errors['milestones.new-again.target']).toBe(ADMIN_MESSAGES.en.editor.checks.targetTaken);
  });

  it('refuses to make a challenge live with an end that has passed, in the merchant’s words; one that ended while live keeps its end through other edits', async () => {
    const past = { startAt: '2020-01-02T10:00:00.000Z', endAt: '2020-03-01T10:00:00.000Z' };
    const challenge = (name: string, status: 'live' | 'draft', ends = past) => {
      const draft = blankProgram('challenge');
      Object.assign(draft.settings, { name, status, completionTargetValue: '3', ...ends });
      return draft;
    };
    const before = await countRecords('challenge');
    const refused = await save(challenge('Spring 2020', 'live'), { language: 'de' });
    expect([refused.saved, refused.errors]).toEqual([null, { 'settings.endAt': ADMIN_MESSAGES.de.editor.checks.campaignEnded }]);
    expect(await countRecords('challenge')).toBe(before);

    const draft = await save(challenge('Spring 2020', 'draft'));
    expect(draft.errors).toEqual({});
    const made = (await loadProgram(api, 'challenge', draft.saved!.id!, stack.app.earningRules, TEST_SHOP)) as {
      ok: true;
      draft: ProgramDraft;
    };
    made.draft.settings.status = 'live';
    expect((await save(made.draft)).errors).toEqual({ 'settings.endAt': ADMIN_MESSAGES.en.editor.checks.campaignEnded });

    // Live with a future end, which then passes: renaming it needs no new end.
    const soon = await save(challenge('Autumn', 'live', { startAt: past.startAt, endAt: new Date(Date.now() + 3_600_000).toISOString() }));
    expect(soon.errors).toEqual({});
    const id = soon.saved!.id!;
    expect(
      (await api.PATCH('/schema/challenge/record/{id}', { params: { path: { id } }, body: { endAt: past.endAt } })).response.status,
    ).toBe(200);
    const ended = (await loadProgram(api, 'challenge', id, stack.app.earningRules, TEST_SHOP)) as { ok: true; draft: ProgramDraft };
    ended.draft.settings.name = 'Autumn (ended)';
    expect((await save(ended.draft)).errors).toEqual({});
  });

  it('checks what a form can tell before the core sees anything', async () => {
    const before = await countRecords('streak');
    const draft = streak('', 'seven', ['x']);
    const outcome = await save(draft);
    expect(outcome.errors).toEqual({
      'settings.name': 'Enter a value.',
      'settings.completionTargetValue': 'Enter a number.',
      'milestones.new-0.target': 'Enter a number.',
    });
    // What counts periods, tasks or activities takes no fraction; a sum may.
    const fractions = streak('Halves', '7', ['2.5']);
    fractions.settings.aggregationTargetValue = '1.5';
    expect((await save(fractions)).errors).toEqual({
      'settings.aggregationTargetValue': 'Enter a whole number.',
      'milestones.new-0.target': 'Enter a whole number.',
    });
    fractions.settings.aggregationMethod = 'sum';
    expect((await save(fractions)).errors).toEqual({ 'milestones.new-0.target': 'Enter a whole number.' });
    // A number the program always has, cleared, is asked for here; one that may be none (an endless streak) is not.
    const cleared = streak('Cleared', '', []);
    for (const key of ['aggregationTargetValue', 'toBeBrokenWarningHours', 'maxFreezes', 'rewardHoldDays', 'holdoutPercent'] as const)
      cleared.settings[key] = '';
    expect((await save(cleared)).errors).toEqual({
      'settings.aggregationTargetValue': 'Enter a value.',
      'settings.toBeBrokenWarningHours': 'Enter a value.',
      'settings.maxFreezes': 'Enter a value.',
      'settings.rewardHoldDays': 'Enter a value.',
      'settings.holdoutPercent': 'Enter a value.',
    });
    expect(await countRecords('streak')).toBe(before);
  });

  it('a milestone refused after its reward was created keeps that reward picked, and the Shopify discount setting is kept', async () => {
    const first = await save(streak('With reward', '7', []));
    const draft = structuredClone(first.draft);
    draft.milestones = [
      {
        ...blankMilestone('new-9'),
        name: 'Too far',
        target: '9',
        reward: { mode: 'new', rewardId: '', draft: { ...blankMilestone('x').reward.draft, name: 'Far reward', discountValue: '20' } },
      },
    ];
    const outcome = await save(draft);
    expect(outcome.errors).toEqual({ 'milestones.new-9.target': 'Enter at most 7.' });
    const kept = outcome.draft.milestones[0]!;
    expect(kept).toMatchObject({ key: 'new-9', id: null, target: '9', reward: { mode: 'existing' } });
    expect(await stack.app.loop.shopifyDiscountRewards(TEST_SHOP)).toContain(kept.reward.rewardId);
    // The saved program is unchanged by the refused milestone.
    const loaded = await loadProgram(api, 'streak', first.draft.id!, stack.app.earningRules, TEST_SHOP);
    expect(loaded.ok && loaded.draft.milestones).toEqual([]);
  });

  it('a new reward’s last day is a day of the shop’s: it ends at its end there, and a day that has passed is refused before anything is created', async () => {
    const lastDay = DateTime.now().setZone(STUB_SHOP.ianaTimezone).plus({ months: 1 }).toISODate()!;
    const withLastDay = (day: string) => {
      const draft = streak(`Dated reward ${day}`, '7', ['3']);
      draft.milestones[0]!.reward = {
        mode: 'new',
        rewardId: '',
        draft: {
          ...blankMilestone('x').reward.draft,
          name: `Ends ${day}`,
          discountValue: '10',
          rewardExpiryType: 'absolute',
          rewardExpiryAt: day,
        },
      };
      return draft;
    };
    const rewardsBefore = await countRecords('reward');
    for (const [day, refusal] of [
      [DateTime.now().setZone(STUB_SHOP.ianaTimezone).minus({ days: 1 }).toISODate()!, 'This day has passed: pick today or a later one.'],
      ['31/12/2030', 'Pick a date.'],
    ] as const) {
      const refused = await save(withLastDay(day));
      expect(refused.errors).toEqual({ 'milestones.new-0.reward.rewardExpiryAt': refusal });
      expect(refused.draft.milestones[0]!.reward).toMatchObject({ mode: 'new', draft: { rewardExpiryAt: day } });
    }
    expect(await countRecords('reward')).toBe(rewardsBefore);

    const asked = zoneAsked;
    const saved = await save(withLastDay(lastDay));
    expect(saved.errors).toEqual({});
    expect(zoneAsked).toBe(asked + 1);
    const rewardId = saved.draft.milestones[0]!.reward.rewardId;
    const reward = (await api.GET('/schema/reward/record/{id}', { params: { path: { id: rewardId } } })).data!.data;
    expect(reward).toMatchObject({ rewardExpiryType: 'absolute' });
    expect(DateTime.fromISO(reward.rewardExpiryAt!, { zone: STUB_SHOP.ianaTimezone }).toISO({ includeOffset: false })).toBe(
      `${lastDay}T23:59:59.000`,
    );
    // A save with no dated reward does not ask Shopify for the zone.
    await save(streak('No dated reward', '7', ['3']));
    expect(zoneAsked).toBe(asked + 1);
  });

  it('keeps the earning rule in the app and the hold in the core; read back, changed and removed', async () => {
    const draft = blankProgram('challenge');
    draft.settings.name = 'Shoe spend';
    draft.settings.completionTargetValue = '100';
    draft.settings.aggregationMethod = 'sum';
    draft.settings.rewardHoldDays = '14';
    draft.earning = { source: 'orders', collectionIds: ['gid://shopify/Collection/77'] };
    const first = await save(draft);
    expect(first.problems).toEqual([]);
    expect(first.saved).toMatchObject({ earning: draft.earning, settings: { rewardHoldDays: '14' } });
    const id = first.saved!.id!;
    expect(await stack.app.earningRules.rule(TEST_SHOP, id)).toEqual({
      kind: 'challenge',
      definitionId: id,
      source: 'orders',
      collectionIds: ['gid://shopify/Collection/77'],
    });
    expect((await api.GET('/schema/challenge/record/{id}', { params: { path: { id } } })).data!.data.rewardHoldDays).toBe(14);
    // Only the rule changes: no call to the core is needed for it, and it is kept all the same.
    const second = await save({ ...first.saved!, earning: { source: 'orders', collectionIds: [] } });
    expect(second.saved!.earning).toEqual({ source: 'orders', collectionIds: [] });
    const third = await save({ ...second.saved!, earning: { source: 'none', collectionIds: [] } });
    expect(third.saved!.earning.source).toBe('none');
    expect(await stack.app.earningRules.rule(TEST_SHOP, id)).toBeNull();
    // Visits feed streaks only: a challenge asked to count them keeps no rule.
    const visits = await save({ ...third.saved!, earning: { source: 'visits', collectionIds: [] } });
    expect(visits.saved!.earning.source).toBe('none');
  });

  it('the save route answers 400 to a body that is not a program draft, and saves one that is', async () => {
    const route = await import('../app/routes/app.programs.$kind.$id');
    const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
    const post = async (body: unknown) => {
      const request = new Request(`${SHOPIFY.appUrl}/app/programs/streak/new`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      try {
        return await route.action({ request, params: { kind: 'streak', id: 'new' }, context: {} });
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    };
    for (const body of [{}, { draft: { settings: {} } }, { draft: 'x' }]) expect(((await post(body)) as Response).status).toBe(400);
    const answer = await post({ draft: streak('Through the route', '', []), language: 'de' });
    expect(answer).toMatchObject({ outcome: { problems: [], saved: { settings: { name: 'Through the route' } } } });
    const german = await post({ draft: streak('', '', []), language: 'de' });
    expect(german).toMatchObject({ outcome: { errors: { 'settings.name': 'Bitte einen Wert eingeben.' } } });
  });
});
