import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeToken } from '../../src/notifications/unsubscribe.js';
import { CHANNELS } from '../../src/schema/members.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { create, path } from './support.js';

let app: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ accountName: 'Unsubscribe page' });
});
afterAll(async () => {
  await app?.close();
});

let members = 0;
async function follow(languageCode: string | null, channel: (typeof CHANNELS)[number]) {
  const member = await create(acct, 'account_user', { externalId: `member-${(members += 1)}`, ...(languageCode && { languageCode }) });
  const res = await fetch(`${app.url}/u/${unsubscribeToken(app.config.masterKey!, acct.accountId, member.id, channel)}`);
  const unsubscribed = (await acct.api.get(path('account_user', member.id))).body.data.unsubscribedChannels;
  return { status: res.status, html: await res.text(), unsubscribed };
}

describe('the unsubscribe page', () => {
  it.each([
    ['fr', 'email', 'Vous ne recevrez plus nos e-mails.'],
    ['fr', 'push', 'Vous ne recevrez plus nos notifications push.'],
    ['fr', 'sms', 'Vous ne recevrez plus nos SMS.'],
    ['fr', 'chat', 'Vous ne recevrez plus nos messages de chat.'],
    ['de', 'email', 'Du erhältst keine E-Mails mehr von uns.'],
    ['ja', 'sms', '今後、SMSは届きません。'],
    [null, 'push', 'You will no longer receive our push notifications.'],
  ] as const)("in the member's language (%s) names the channel that stopped (%s)", async (languageCode, channel, text) => {
    const { status, html, unsubscribed } = await follow(languageCode, channel);
    expect(status).toBe(200);
    expect(html).toContain(`<html lang="${languageCode ?? 'en'}">`);
    expect(html).toContain(`<p>${text}</p>`);
    expect(unsubscribed).toEqual([channel]);
  });

  it('answers HEAD (a link checker) without recording anything', async () => {
    const member = await create(acct, 'account_user', { externalId: 'checked-link' });
    const link = `${app.url}/u/${unsubscribeToken(app.config.masterKey!, acct.accountId, member.id, 'email')}`;
    expect((await fetch(link, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${link}x`, { method: 'HEAD' })).status).toBe(404);
    expect((await acct.api.get(path('account_user', member.id))).body.data.unsubscribedChannels).toEqual([]);
  });

  it('has a text for every channel in every language it answers in', async () => {
    for (const languageCode of ['en', 'es', 'fr', 'de', 'zh-CN', 'ja', 'pt', 'it', 'ko']) {
      const texts = new Set<string>();
      for (const channel of CHANNELS) {
        const { html } = await follow(languageCode, channel);
        expect(html, `${languageCode} ${channel}`).toContain(`<html lang="${languageCode}">`);
        texts.add(/<p>([^<]+)<\/p>/.exec(html)![1]!);
      }
      expect(texts.size, languageCode).toBe(CHANNELS.length);
    }
  });
});
