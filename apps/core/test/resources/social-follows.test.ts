import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess } from '../support/processes.js';

/*
 * Points for following the shop's social profiles (points_setting.pointsOnFollow and the profile
 * URLs, an addition to CONTRACT §19): a member's first follow of each network earns the rate once,
 * under any concurrency, and a refused follow changes nothing.
 */
let app: TestApp;
const served: ServiceProcess[] = [];
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await Promise.all(served.map((p) => p.kill()));
  await app.close();
});

const INSTAGRAM = 'https://www.instagram.com/example_shop';
const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });
let seq = 0;

async function program(setting: Record<string, unknown> = {}): Promise<{ a: TestAccount; settingId: string }> {
  const a = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
  const s = (await accepted(a.api.get('/schema/points_setting/record')))[0];
  await accepted(
    a.api.patch(`/schema/points_setting/record/${s.id}`, { status: 'live', pointsOnFollow: 50, instagramUrl: INSTAGRAM, ...setting }),
  );
  return { a, settingId: s.id };
}
async function endUser(a: TestAccount): Promise<{ client: Client; memberId: string }> {
  const token = await accepted(a.api.post('/enduser/token', { externalId: `fan-${++seq}` }));
  return { client: app.anon.with({ 'x-enduser-access-token': token.accessToken, 'x-account-id': a.accountId }), memberId: token.memberId };
}
const follow = (api: Client, settingId: string, body: unknown) =>
  api.post(`/schema/points_setting/record/${settingId}/action/follow`, body);
/** What a refused follow must leave as it was. */
async function stateOf(memberId: string) {
  const m = await app.db('account_user').where({ id: memberId }).first('points_balance', 'social_follows');
  const entries = await app.db('point_entry').where({ owned_by_id: memberId }).count({ n: '*' });
  return { ...m, entries: Number(entries[0]!.n) };
}

describe('the profiles', () => {
  it('are https URLs on their own network’s site, read by guests beside the rate', async () => {
    const { a, settingId } = await program();
    const patch = (body: Record<string, unknown>) => a.api.patch(`/schema/points_setting/record/${settingId}`, body);
    for (const [field, url] of [
      ['instagramUrl', 'https://instagram.example.com/shop'],
      ['tiktokUrl', 'https://www.instagram.com/shop'],
      ['facebookUrl', 'http://www.facebook.com/shop'],
      ['xUrl', 'javascript:alert(1)'],
    ] as const) {
      const refused = await patch({ [field]: url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.details[0]).toMatchObject({ field });
    }
    const profiles = {
      tiktokUrl: 'https://www.tiktok.com/@example_shop',
      facebookUrl: 'https://m.facebook.com/exampleshop',
      youtubeUrl: 'https://www.youtube.com/@exampleshop',
      xUrl: 'https://twitter.com/exampleshop',
      pinterestUrl: 'https://uk.pinterest.co.uk/exampleshop',
    };
    await accepted(patch(profiles));
    const guest = await app.anon.get('/schema/points_setting/record', undefined, { 'x-account-id': a.accountId });
    expect(guest.status).toBe(200);
    expect(guest.body.data[0]).toMatchObject({ pointsOnFollow: 50, instagramUrl: INSTAGRAM, ...profiles });
    // Cleared with null.
    expect((await accepted(patch({ xUrl: null }))).xUrl).toBeNull();
  });
});

describe('following', () => {
  it('earns the rate once per network, times the member’s tier, with points_earned showing the network followed', async () => {
    const { a, settingId } = await program({ tiktokUrl: 'https://www.tiktok.com/@example_shop' });
    await accepted(a.api.post('/schema/tier/record', { name: 'Base', status: 'live', pointsThreshold: 0, earnMultiplier: 1.5 }));
    const { client, memberId } = await endUser(a);
    const first = await follow(client, settingId, { network: 'instagram' });
    expect(first.status).toBe(200);
    expect(first.body.data.pointsBalance).toBe(75);
    expect(first.body.data.pointEntry).toMatchObject({
      ownedById: memberId,
      points: 75,
      reason: 'earned',
      linkedSchemaSlug: 'social_follow',
      linkedSchemaRecordId: 'instagram',
    });
    const me = await client.get('/schema/account_user/me');
    expect(me.body.data).toMatchObject({ socialFollows: ['instagram'], pointsBalance: 75 });

    const again = await follow(client, settingId, { network: 'instagram' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_followed');
    expect(again.body.error.details[0]).toMatchObject({ field: 'network' });
    await accepted(follow(client, settingId, { network: 'tiktok' }));
    expect(await stateOf(memberId)).toEqual({ points_balance: 150, social_follows: ['instagram', 'tiktok'], entries: 2 });

    const events = await accepted(a.api.get('/schema/event_log/record', { filters: eq('eventCode', 'points_earned'), limit: '10' }));
    expect(events.map((e: any) => e.payload.member.socialFollows).sort()).toEqual([['instagram'], ['instagram', 'tiktok']]);
  });

  it('is refused with nothing changed: points off, no rate, no profile, a paused member, an unknown network, or for someone else', async () => {
    const { a, settingId } = await program();
    const { client, memberId } = await endUser(a);
    const before = await stateOf(memberId);
    const refusal = async (body: unknown, status: number, code: string, field: string, api = client) => {
      const res = await follow(api, settingId, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.details.map((d: any) => d.field)).toContain(field);
    };
    await refusal({ network: 'tiktok' }, 409, 'not_earnable', 'tiktokUrl');
    await refusal({ network: 'myspace' }, 400, 'invalid_input', 'network');
    await refusal({}, 400, 'invalid_input', 'network');
    await refusal({ network: 'instagram', ownedById: memberId }, 400, 'invalid_input', 'ownedById');
    // An API key names the member.
    await refusal({ network: 'instagram' }, 400, 'invalid_input', 'ownedById', a.api);
    await refusal({ network: 'instagram', ownedById: '00000000-0000-4000-8000-000000000000' }, 400, 'invalid_input', 'ownedById', a.api);
    // A paused member earns nothing, as on their birthday.
    await accepted(a.api.patch(`/schema/account_user/record/${memberId}`, { status: 'paused' }));
    await refusal({ network: 'instagram' }, 409, 'not_earnable', 'ownedById');
    await accepted(a.api.patch(`/schema/account_user/record/${memberId}`, { status: 'live' }));
    await accepted(a.api.patch(`/schema/points_setting/record/${settingId}`, { pointsOnFollow: 0 }));
    await refusal({ network: 'instagram' }, 409, 'not_earnable', 'pointsOnFollow');
    await accepted(a.api.patch(`/schema/points_setting/record/${settingId}`, { pointsOnFollow: 50, status: 'paused' }));
    await refusal({ network: 'instagram' }, 409, 'not_earnable', 'status');
    expect(await stateOf(memberId)).toEqual(before);
    // Guests have no member to credit; another account's member is not found in this one.
    const guest = await follow(app.anon.with({ 'x-account-id': a.accountId }), settingId, { network: 'instagram' });
    expect(guest.status).toBe(401);
    const other = await program();
    const stranger = await endUser(other.a);
    expect((await follow(stranger.client, settingId, { network: 'instagram' })).status).toBe(404);
    expect(await stateOf(stranger.memberId)).toMatchObject({ points_balance: 0, social_follows: [], entries: 0 });
  });

  it('by an API key for a member; 20 racing follows of one network earn once, of six networks each once', async () => {
    const { a, settingId } = await program({
      tiktokUrl: 'https://www.tiktok.com/@s',
      facebookUrl: 'https://www.facebook.com/s',
      youtubeUrl: 'https://www.youtube.com/@s',
      xUrl: 'https://x.com/s',
      pinterestUrl: 'https://www.pinterest.com/s',
    });
    const { client, memberId } = await endUser(a);
    const raced = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        follow(i % 2 ? client : a.api, settingId, i % 2 ? { network: 'instagram' } : { network: 'instagram', ownedById: memberId }),
      ),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([200, ...Array<number>(19).fill(409)]);
    expect(raced.filter((r) => r.status === 409).every((r) => r.body.error.code === 'already_followed')).toBe(true);
    expect(await stateOf(memberId)).toEqual({ points_balance: 50, social_follows: ['instagram'], entries: 1 });

    const networks = ['tiktok', 'facebook', 'youtube', 'x', 'pinterest'];
    const each = await Promise.all(
      networks.flatMap((network) => [follow(client, settingId, { network }), follow(client, settingId, { network })]),
    );
    expect(each.filter((r) => r.status === 200)).toHaveLength(5);
    const after = await stateOf(memberId);
    expect(after).toMatchObject({ points_balance: 300, entries: 6 });
    expect([...after.social_follows].sort()).toEqual(['facebook', 'instagram', 'pinterest', 'tiktok', 'x', 'youtube']);
  });

  it('through the binary that ships: follows raced across two `serve` processes earn once', async () => {
    const { a, settingId } = await program();
    const token = await accepted(a.api.post('/enduser/token', { externalId: `fan-${++seq}` }));
    served.push(...(await Promise.all([startProcess(app, ['serve', '--no-workers']), startProcess(app, ['serve', '--no-workers'])])));
    const clients = served.map((p) => new Client(p.url).with({ 'x-enduser-access-token': token.accessToken, 'x-account-id': a.accountId }));
    const raced = await Promise.all(Array.from({ length: 10 }, (_, i) => follow(clients[i % 2]!, settingId, { network: 'instagram' })));
    expect(raced.map((r) => r.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    expect(await stateOf(token.memberId)).toEqual({ points_balance: 50, social_follows: ['instagram'], entries: 1 });
  });
});
