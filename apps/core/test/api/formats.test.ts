import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL } from '../../src/formats.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
});
afterAll(() => app.close());

const ADDRESSES = [
  'shopper@example.com',
  "o'neil+news@mail.shop.example",
  'a@ab-.co',
  'a@-ab.co',
  'a@ab..co',
  '.a@example.com',
  'a.@example.com',
  'a@example',
  'a@example.c0m',
  // RFC 5322's other characters, which shops' customers have.
  'tom&jerry@example.com',
  'first~last@example.com',
  '{a}|b/c=d?e^f`g#h$i%j*k!l@example.com',
  'a..b@example.com',
  'a b@example.com',
  '"quoted"@example.com',
  'émilie@example.com',
];

describe('an e-mail address, one rule wherever one is written', () => {
  it("is accepted by the service exactly where JSON Schema's email format and the document's pattern accept it", async () => {
    const ajv = new Ajv2020();
    addFormats.default(ajv);
    const documented = ajv.compile({ type: 'string', format: 'email', pattern: EMAIL.source });
    for (const [i, email] of ADDRESSES.entries()) {
      const writes = [
        await acct.api.post('/schema/account_user/record', { externalId: `mail-${i}`, email }),
        await acct.api.post('/enduser/token', { externalId: `token-${i}`, email }),
        await acct.api.post('/schema/service_email/record', { name: `Mail ${i}`, replyToEmailAddress: email }),
      ];
      for (const res of writes) expect(res.status, `${email}: ${JSON.stringify(res.body)}`).toBe(documented(email) ? 200 : 400);
    }
    // Both outcomes are among the cases.
    expect(ADDRESSES.filter((e) => documented(e))).toEqual([
      'shopper@example.com',
      "o'neil+news@mail.shop.example",
      'tom&jerry@example.com',
      'first~last@example.com',
      '{a}|b/c=d?e^f`g#h$i%j*k!l@example.com',
    ]);
  });
});
