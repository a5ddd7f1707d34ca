import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/** CONTRACT §7: localisable fields are stored per language and read with a fall-back chain. */

type Json = Record<string, any>;
type Texts = Partial<Record<string, string>>;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const lang = (languageCode?: string) => (languageCode ? { languageCode } : {});

function ok(res: Reply): Json {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const post = async (a: TestAccount, slug: string, body: Json, languageCode?: string) =>
  ok(await a.api.request('POST', `/schema/${slug}/record`, { body, query: lang(languageCode) }));
const patch = async (a: TestAccount, slug: string, id: string, body: Json, languageCode?: string) =>
  ok(await a.api.patch(`/schema/${slug}/record/${id}`, body, {}, lang(languageCode)));
const read = async (a: TestAccount, slug: string, id: string, languageCode?: string) =>
  ok(await a.api.get(`/schema/${slug}/record/${id}`, lang(languageCode)));

/** The text a read in `requested` shows, by §7: that language, the account default, en, else null. */
function resolve(texts: Texts, requested: string | undefined, accountDefault: string): string | null {
  for (const l of [requested, accountDefault, 'en']) {
    if (l && texts[l] !== undefined) return texts[l]!;
  }
  return null;
}

describe('streak texts in an account whose default is en', () => {
  let acct: TestAccount;
  beforeAll(async () => {
    acct = await app.createAccount();
  });

  it('writes per language and reads each back, falling back to the default language', async () => {
    const created = await post(acct, 'streak', { name: 'Walk', eudTitle: 'Daily walk', eudDescription: 'Walk every day' });
    const id = created.id as string;
    expect(created).toMatchObject({ eudTitle: 'Daily walk', eudDescription: 'Walk every day' });
    // A write answers in the language it wrote.
    expect(await patch(acct, 'streak', id, { eudTitle: 'Marche quotidienne', eudDescription: 'Marchez chaque jour' }, 'fr')).toMatchObject({
      eudTitle: 'Marche quotidienne',
      eudDescription: 'Marchez chaque jour',
    });
    await patch(acct, 'streak', id, { eudTitle: 'Täglicher Spaziergang' }, 'de');

    const expected: [string | undefined, string, string][] = [
      [undefined, 'Daily walk', 'Walk every day'],
      ['en', 'Daily walk', 'Walk every day'],
      ['fr', 'Marche quotidienne', 'Marchez chaque jour'],
      ['de', 'Täglicher Spaziergang', 'Walk every day'],
      ['ja', 'Daily walk', 'Walk every day'],
      ['zh-CN', 'Daily walk', 'Walk every day'],
    ];
    for (const [l, title, description] of expected) {
      expect(await read(acct, 'streak', id, l), `read in ${l}`).toMatchObject({ eudTitle: title, eudDescription: description });
      const listed = ok(
        await acct.api.get('/schema/streak/record', {
          ...lang(l),
          filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'equals', fieldValue: id }] },
        }),
      );
      expect(listed, `list in ${l}`).toEqual([expect.objectContaining({ id, eudTitle: title, eudDescription: description })]);
    }
  });

  it('a text written only in another language reads as null where the chain finds none', async () => {
    const created = await post(acct, 'streak', { name: 'French only', eudTitle: 'Seulement en français' }, 'fr');
    expect(created.eudTitle).toBe('Seulement en français');
    expect((await read(acct, 'streak', created.id)).eudTitle).toBeNull();
    expect((await read(acct, 'streak', created.id, 'en')).eudTitle).toBeNull();
    expect((await read(acct, 'streak', created.id, 'de')).eudTitle).toBeNull();
    expect((await read(acct, 'streak', created.id, 'fr')).eudTitle).toBe('Seulement en français');
  });

  it('a PATCH in one language leaves the others; null removes that language only', async () => {
    const { id } = await post(acct, 'streak', { name: 'Patch', eudTitle: 'English', eudCompletedMessage: 'Done!' });
    await patch(acct, 'streak', id, { eudTitle: 'Français', eudCompletedMessage: 'Fini !' }, 'fr');
    await patch(acct, 'streak', id, { eudTitle: 'Deutsch' }, 'de');
    await patch(acct, 'streak', id, { eudTitle: 'Anglais' }, 'en');
    expect((await read(acct, 'streak', id, 'fr')).eudTitle).toBe('Français');
    expect((await read(acct, 'streak', id, 'de')).eudTitle).toBe('Deutsch');
    expect((await read(acct, 'streak', id)).eudTitle).toBe('Anglais');

    // A PATCH of another field keeps every text.
    await patch(acct, 'streak', id, { name: 'Patched' }, 'fr');
    expect((await read(acct, 'streak', id, 'fr')).eudTitle).toBe('Français');

    await patch(acct, 'streak', id, { eudTitle: null }, 'fr');
    expect(await read(acct, 'streak', id, 'fr')).toMatchObject({ eudTitle: 'Anglais', eudCompletedMessage: 'Fini !' });
    expect((await read(acct, 'streak', id, 'de')).eudTitle).toBe('Deutsch');

    // Without languageCode the write goes to the account default.
    await patch(acct, 'streak', id, { eudTitle: null });
    expect((await read(acct, 'streak', id)).eudTitle).toBeNull();
    expect((await read(acct, 'streak', id, 'ja')).eudTitle).toBeNull();
    expect((await read(acct, 'streak', id, 'de')).eudTitle).toBe('Deutsch');
    expect((await read(acct, 'streak', id)).eudCompletedMessage).toBe('Done!');
  });

  it('max length applies per language', async () => {
    const max = (c: string) => c.repeat(48);
    const { id } = await post(acct, 'streak', { name: 'Long', eudTitle: max('e') });
    await patch(acct, 'streak', id, { eudTitle: max('f') }, 'fr');
    await patch(acct, 'streak', id, { eudTitle: max('d') }, 'de');
    expect((await read(acct, 'streak', id, 'fr')).eudTitle).toBe(max('f'));
    expect((await read(acct, 'streak', id, 'de')).eudTitle).toBe(max('d'));
    expect((await read(acct, 'streak', id)).eudTitle).toBe(max('e'));

    const tooLong = await acct.api.patch(`/schema/streak/record/${id}`, { eudTitle: 'x'.repeat(49) }, {}, { languageCode: 'fr' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({
      code: 'invalid_input',
      details: [expect.objectContaining({ field: 'eudTitle', code: 'too_long' })],
    });
    expect((await read(acct, 'streak', id, 'fr')).eudTitle).toBe(max('f'));

    const createTooLong = await acct.api.request('POST', '/schema/streak/record', {
      body: { name: 'x', eudDescription: 'y'.repeat(1025) },
      query: { languageCode: 'de' },
    });
    expect(createTooLong.status).toBe(400);
    expect(createTooLong.body.error.details).toEqual([expect.objectContaining({ field: 'eudDescription', code: 'too_long' })]);
    // 1024 in each of several languages is fine.
    const { id: described } = await post(acct, 'streak', { name: 'x', eudDescription: 'y'.repeat(1024) }, 'de');
    await patch(acct, 'streak', described, { eudDescription: 'z'.repeat(1024) }, 'it');
    expect((await read(acct, 'streak', described, 'it')).eudDescription).toBe('z'.repeat(1024));
    expect((await read(acct, 'streak', described, 'de')).eudDescription).toBe('y'.repeat(1024));
  });
});

describe('milestone texts', () => {
  let acct: TestAccount;
  beforeAll(async () => {
    acct = await app.createAccount();
  });

  it('are stored per language, also where a streak shows its milestones', async () => {
    const streak = await post(acct, 'streak', { name: 'With milestones', eudTitle: 'Streak' });
    const en = {
      eudTitle: 'Bronze',
      eudDescription: 'Three days',
      eudMilestoneRewardTitle: '5% off',
      eudMilestoneRewardInstructionMessage: 'Use the code at checkout',
    };
    const fr = {
      eudTitle: 'Bronze FR',
      eudDescription: 'Trois jours',
      eudMilestoneRewardTitle: '5 % de remise',
      eudMilestoneRewardInstructionMessage: 'Utilisez le code',
    };
    const milestone = await post(acct, 'milestone', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      name: 'M3',
      description: 'd',
      milestoneTargetValue: 3,
      status: 'live',
      ...en,
    });
    expect(milestone).toMatchObject(en);
    expect(await patch(acct, 'milestone', milestone.id, fr, 'fr')).toMatchObject(fr);
    await patch(acct, 'milestone', milestone.id, { eudTitle: 'Bronze DE' }, 'de');

    expect(await read(acct, 'milestone', milestone.id)).toMatchObject(en);
    expect(await read(acct, 'milestone', milestone.id, 'fr')).toMatchObject(fr);
    expect(await read(acct, 'milestone', milestone.id, 'de')).toMatchObject({ ...en, eudTitle: 'Bronze DE' });
    expect(await read(acct, 'milestone', milestone.id, 'ko')).toMatchObject(en);

    expect((await read(acct, 'streak', streak.id, 'fr')).milestones).toEqual([expect.objectContaining({ id: milestone.id, ...fr })]);
    expect((await read(acct, 'streak', streak.id, 'de')).milestones).toEqual([
      expect.objectContaining({ id: milestone.id, ...en, eudTitle: 'Bronze DE' }),
    ]);

    await patch(acct, 'milestone', milestone.id, { eudMilestoneRewardTitle: null }, 'fr');
    expect(await read(acct, 'milestone', milestone.id, 'fr')).toMatchObject({ ...fr, eudMilestoneRewardTitle: '5% off' });
    expect(await read(acct, 'milestone', milestone.id)).toMatchObject(en);

    const tooLong = await acct.api.patch(
      `/schema/milestone/record/${milestone.id}`,
      { eudMilestoneRewardTitle: 'r'.repeat(49) },
      {},
      { languageCode: 'fr' },
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual([expect.objectContaining({ field: 'eudMilestoneRewardTitle', code: 'too_long' })]);
  });
});

describe('mission task texts', () => {
  let acct: TestAccount;
  beforeAll(async () => {
    acct = await app.createAccount();
  });

  const task = (t: Json) => ({ aggregationMethod: 'count', ...t });

  it('are stored per language per task and survive PATCHes in other languages', async () => {
    const mission = await post(acct, 'mission', {
      name: 'Mission',
      eudTitle: 'Coffee lover',
      tasks: [
        task({ name: 'Buy', activityId: 'buy', targetValue: 1, eudTitle: 'Buy a coffee', eudDescription: 'Any coffee' }),
        task({ name: 'Share', activityId: 'share', targetValue: 2, eudTitle: 'Share a photo' }),
      ],
    });
    const [buy, share] = mission.tasks as Json[];
    expect(buy).toMatchObject({ eudTitle: 'Buy a coffee', eudDescription: 'Any coffee' });
    expect(share).toMatchObject({ eudTitle: 'Share a photo', eudDescription: null });

    const same = (t: Json) => ({ id: t.id, name: t.name, activityId: t.activityId, targetValue: t.targetValue });
    await patch(
      acct,
      'mission',
      mission.id,
      {
        eudTitle: 'Amateur de café',
        tasks: [
          { ...same(buy!), eudTitle: 'Achetez un café' },
          { ...same(share!), eudTitle: 'Partagez une photo', eudDescription: 'Sur Instagram' },
        ],
      },
      'fr',
    );

    const titles = async (l?: string) => {
      const m = await read(acct, 'mission', mission.id, l);
      return [m.eudTitle, ...(m.tasks as Json[]).map((t) => [t.id, t.eudTitle, t.eudDescription])];
    };
    expect(await titles('fr')).toEqual([
      'Amateur de café',
      [buy!.id, 'Achetez un café', 'Any coffee'],
      [share!.id, 'Partagez une photo', 'Sur Instagram'],
    ]);
    expect(await titles()).toEqual(['Coffee lover', [buy!.id, 'Buy a coffee', 'Any coffee'], [share!.id, 'Share a photo', null]]);
    expect(await titles('en')).toEqual(await titles());
    expect(await titles('de')).toEqual(await titles());

    // null removes one language of one task; tasks sent without texts keep theirs.
    await patch(acct, 'mission', mission.id, { tasks: [{ ...same(buy!), eudTitle: null }, same(share!)] }, 'fr');
    expect(await titles('fr')).toEqual([
      'Amateur de café',
      [buy!.id, 'Buy a coffee', 'Any coffee'],
      [share!.id, 'Partagez une photo', 'Sur Instagram'],
    ]);
    expect(await titles()).toEqual(['Coffee lover', [buy!.id, 'Buy a coffee', 'Any coffee'], [share!.id, 'Share a photo', null]]);

    const tooLong = await acct.api.patch(
      `/schema/mission/record/${mission.id}`,
      { tasks: [{ ...same(buy!), eudTitle: 't'.repeat(49) }, same(share!)] },
      {},
      { languageCode: 'de' },
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual([expect.objectContaining({ field: 'tasks[0].eudTitle', code: 'too_long' })]);
    await patch(acct, 'mission', mission.id, { tasks: [{ ...same(buy!), eudTitle: 't'.repeat(48) }, same(share!)] }, 'de');
    expect((await read(acct, 'mission', mission.id, 'de')).tasks[0].eudTitle).toBe('t'.repeat(48));
    expect((await read(acct, 'mission', mission.id)).tasks[0].eudTitle).toBe('Buy a coffee');
  });
});

/**
 * Filters and sort on a localisable field see the text a read in the same language shows.
 * Expected values come from the texts written here and the §7 chain, computed locally.
 */
async function checkFilterAndSort(acct: TestAccount, accountDefault: string, model: { id: string; texts: Texts }[]) {
  const ids = model.map((m) => m.id);
  const mine = { fieldSlug: 'id', operator: 'in', fieldValue: ids };
  const probes = [...new Set(model.flatMap((m) => Object.values(m.texts) as string[]))];
  for (const l of [undefined, 'en', 'es', 'fr', 'de', 'ja']) {
    const shown = (m: { texts: Texts }) => resolve(m.texts, l, accountDefault);
    const listed = ok(
      await acct.api.get('/schema/streak/record', { ...lang(l), filters: { operator: 'and', conditions: [mine] }, limit: '1000' }),
    );
    expect(Object.fromEntries(listed.map((r: Json) => [r.id, r.eudTitle])), `read in ${l}`).toEqual(
      Object.fromEntries(model.map((m) => [m.id, shown(m)])),
    );

    for (const text of probes) {
      const res = ok(
        await acct.api.get('/schema/streak/record', {
          ...lang(l),
          limit: '1000',
          filters: { operator: 'and', conditions: [mine, { fieldSlug: 'eudTitle', operator: 'equals', fieldValue: text }] },
        }),
      );
      expect(res.map((r: Json) => r.id).sort(), `equals ${text} in ${l}`).toEqual(
        model
          .filter((m) => shown(m) === text)
          .map((m) => m.id)
          .sort(),
      );
    }
    const contains = ok(
      await acct.api.get('/schema/streak/record', {
        ...lang(l),
        limit: '1000',
        filters: { operator: 'and', conditions: [mine, { fieldSlug: 'eudTitle', operator: 'contains', fieldValue: 'AN' }] },
      }),
    );
    expect(contains.map((r: Json) => r.id).sort(), `contains in ${l}`).toEqual(
      model
        .filter((m) => shown(m)?.toLowerCase().includes('an'))
        .map((m) => m.id)
        .sort(),
    );
    const nulls = ok(
      await acct.api.get('/schema/streak/record', {
        ...lang(l),
        limit: '1000',
        filters: { operator: 'and', conditions: [mine, { fieldSlug: 'eudTitle', operator: 'is_null' }] },
      }),
    );
    expect(nulls.map((r: Json) => r.id).sort(), `is_null in ${l}`).toEqual(
      model
        .filter((m) => shown(m) === null)
        .map((m) => m.id)
        .sort(),
    );

    for (const order of ['ASC', 'DESC'] as const) {
      const sorted = ok(
        await acct.api.get('/schema/streak/record', {
          ...lang(l),
          limit: '1000',
          filters: { operator: 'and', conditions: [mine, { fieldSlug: 'eudTitle', operator: 'is_not_null' }] },
          sortBy: [{ fieldSlug: 'eudTitle', order }],
        }),
      );
      const expected = model.filter((m) => shown(m) !== null).sort((a, b) => (shown(a)! < shown(b)! ? -1 : 1));
      if (order === 'DESC') expected.reverse();
      expect(
        sorted.map((r: Json) => r.eudTitle),
        `sort ${order} in ${l}`,
      ).toEqual(expected.map(shown));
    }
  }
}

describe('filters and sort on a localisable field use the read language', () => {
  it('in an account whose default is en', async () => {
    const acct = await app.createAccount();
    // Lowercase ASCII texts, all distinct, so the expected order holds under any collation.
    const model: { id: string; texts: Texts }[] = [];
    const spec: Texts[] = [
      { en: 'apple', fr: 'pomme', de: 'apfel' },
      { en: 'banana', fr: 'banane' },
      { en: 'cherry' },
      { fr: 'orange' },
      { de: 'zitrone', es: 'limon' },
      {},
    ];
    for (const [i, texts] of spec.entries()) {
      const { id } = await post(acct, 'streak', { name: `s${i}` });
      for (const [l, text] of Object.entries(texts)) await patch(acct, 'streak', id, { eudTitle: text }, l);
      model.push({ id, texts });
    }
    await checkFilterAndSort(acct, 'en', model);
  });

  it('in an account whose default is es', async () => {
    const acct = await app.createAccount({ defaultLanguageCode: 'es' });
    const model: { id: string; texts: Texts }[] = [];
    const spec: [string | undefined, Texts][] = [
      [undefined, { es: 'manzana', en: 'apple', fr: 'pomme' }],
      [undefined, { es: 'platano', en: 'banana' }],
      ['en', { en: 'cherry' }],
      ['fr', { fr: 'orange', de: 'orange' }],
      [undefined, { es: 'limon' }],
    ];
    for (const [i, [first, texts]] of spec.entries()) {
      // The first text is written at create; without languageCode it goes to the default, es.
      const firstLang = first ?? 'es';
      const { id } = await post(acct, 'streak', { name: `s${i}`, eudTitle: texts[firstLang] }, first);
      for (const [l, text] of Object.entries(texts)) if (l !== firstLang) await patch(acct, 'streak', id, { eudTitle: text }, l);
      model.push({ id, texts });
    }
    await checkFilterAndSort(acct, 'es', model);
  });
});

describe('an account created with defaultLanguageCode es', () => {
  it('reads and writes es without languageCode and falls back to es before en', async () => {
    const acct = await app.createAccount({ defaultLanguageCode: 'es' });
    const { id } = await post(acct, 'streak', { name: 'es', eudTitle: 'Hola', eudDescription: 'Descripción' });
    expect((await read(acct, 'streak', id, 'es')).eudTitle).toBe('Hola');
    expect((await read(acct, 'streak', id, 'en')).eudTitle).toBe('Hola');

    await patch(acct, 'streak', id, { eudTitle: 'Hello', eudDescription: 'Description' }, 'en');
    expect(await read(acct, 'streak', id)).toMatchObject({ eudTitle: 'Hola', eudDescription: 'Descripción' });
    expect(await read(acct, 'streak', id, 'en')).toMatchObject({ eudTitle: 'Hello', eudDescription: 'Description' });
    expect(await read(acct, 'streak', id, 'fr')).toMatchObject({ eudTitle: 'Hola', eudDescription: 'Descripción' });
    expect(await read(acct, 'streak', id, 'ja')).toMatchObject({ eudTitle: 'Hola', eudDescription: 'Descripción' });

    // Removing the default language's text falls back to en.
    await patch(acct, 'streak', id, { eudTitle: null });
    expect((await read(acct, 'streak', id)).eudTitle).toBe('Hello');
    expect((await read(acct, 'streak', id, 'fr')).eudTitle).toBe('Hello');
    expect((await read(acct, 'streak', id, 'es')).eudTitle).toBe('Hello');
    expect((await read(acct, 'streak', id)).eudDescription).toBe('Descripción');

    await patch(acct, 'streak', id, { eudTitle: null }, 'en');
    expect((await read(acct, 'streak', id, 'fr')).eudTitle).toBeNull();
  });

  it('mission tasks written without languageCode are es texts', async () => {
    const acct = await app.createAccount({ defaultLanguageCode: 'es' });
    const mission = await post(acct, 'mission', { name: 'm', tasks: [{ name: 't', activityId: 'a', targetValue: 1, eudTitle: 'Compra' }] });
    const t = mission.tasks[0] as Json;
    await patch(acct, 'mission', mission.id, { tasks: [{ id: t.id, name: 't', activityId: 'a', targetValue: 1, eudTitle: 'Buy' }] }, 'en');
    expect((await read(acct, 'mission', mission.id)).tasks[0].eudTitle).toBe('Compra');
    expect((await read(acct, 'mission', mission.id, 'de')).tasks[0].eudTitle).toBe('Compra');
    expect((await read(acct, 'mission', mission.id, 'en')).tasks[0].eudTitle).toBe('Buy');
  });
});
