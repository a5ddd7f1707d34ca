import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
let other: TestAccount;
let member: Client;

const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const serviceAccount = {
  type: 'service_account',
  project_id: 'demo-project',
  private_key_id: 'kid-1',
  private_key: privateKey,
  client_email: 'push@demo-project.iam.example.com',
  client_id: '1234567890',
};

const path = (slug: string, id?: string) => `/schema/${slug}/record${id ? `/${id}` : ''}`;

/** A valid create body per resource of this file and the integrations notification rules need. */
const BODIES: Record<string, () => Record<string, unknown>> = {
  email_template: () => ({
    name: 'Streak done',
    status: 'live',
    sampleEventCode: 'streak_progress_completed',
    subject: 'Well done {{$account_user.firstName}}',
    htmlContent: '{{>header}}<p>{{$helpers.currentProgressValue}} days</p>{{>footer}}',
  }),
  email_theme: () => ({ name: `Theme ${randomUUID()}`, status: 'live' }),
  email_header: () => ({ name: 'Header', htmlContent: '<h1>{{$account.name}}</h1>' }),
  email_footer: () => ({ name: 'Footer', htmlContent: '<p><a href="{{$helpers.unsubscribeUrl}}">Unsubscribe</a></p>' }),
  push_notification_template: () => ({ name: 'Push', title: 'Hi {{$account_user.firstName}}', body: '{{$helpers.remainingValue}} to go' }),
  sms_template: () => ({ name: 'SMS', body: '{{$account.name}}: {{$helpers.remainingValue}} to go' }),
  chat_message_template: () => ({
    name: 'Chat',
    templateName: 'streak_reminder',
    templateLanguageCode: 'en_US',
    bodyParameters: ['{{$account_user.firstName}}'],
  }),
  service_email: () => ({ name: 'Mail', replyToEmailAddress: 'help@shop.example' }),
  push_cloud_messaging: () => ({ name: 'Push', serviceAccountJSON: serviceAccount }),
  cloud_sms: () => ({
    name: 'SMS',
    accessKeyId: 'AKIAEXAMPLE123456',
    secretAccessKey: 'sms-secret',
    region: 'us-east-1',
    senderId: 'Shop',
  }),
  cloud_chat: () => ({
    name: 'Chat',
    accessKeyId: 'AKIAEXAMPLE123456',
    secretAccessKey: 'chat-secret',
    region: 'eu-west-1',
    messagingBusinessAccountId: 'waba-1',
    messagingPhoneNumberId: 'phone-number-id-1',
  }),
};

async function create(slug: string, over: Record<string, unknown> = {}, account = acct): Promise<Record<string, any>> {
  const res = await account.api.post(path(slug), { ...BODIES[slug]!(), ...over });
  expect(res.status, `${slug}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data;
}

/** The error details of a 400 as `field:code` pairs. */
function details(res: { status: number; body: any }): string[] {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('invalid_input');
  return res.body.error.details.map((d: { field: string; code: string }) => `${d.field}:${d.code}`);
}

const PAIRS = [
  ['service_email', 'email_template'],
  ['push_cloud_messaging', 'push_notification_template'],
  ['cloud_sms', 'sms_template'],
  ['cloud_chat', 'chat_message_template'],
] as const;

async function rule(provider: string, integrationId: string, templateId: string, over: Record<string, unknown> = {}) {
  return acct.api.post(path('notification'), {
    name: 'Rule',
    eventCodes: ['streak_progress_completed'],
    integrationProvider: provider,
    integrationId,
    templateId,
    ...over,
  });
}

beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
  other = await app.createAccount();
  const token = await acct.api.post('/enduser/token', { externalId: 'member-1' });
  member = app.anon.with({ 'x-enduser-access-token': token.body.data.accessToken, 'x-account-id': acct.accountId });
});
afterAll(() => app?.close());

describe('every resource of the file', () => {
  const slugs = [
    'notification',
    'email_template',
    'email_theme',
    'email_header',
    'email_footer',
    'push_notification_template',
    'sms_template',
    'chat_message_template',
  ];

  async function anyRecord(slug: string) {
    if (slug !== 'notification') return create(slug);
    const res = await rule('cloud_sms', (await create('cloud_sms')).id, (await create('sms_template')).id);
    return res.body.data;
  }

  it.each(slugs)('%s: 404 for another account, 403 for an end user, 401 for a guest', async (slug) => {
    const record = await anyRecord(slug);
    expect((await other.api.get(path(slug, record.id))).status).toBe(404);
    expect((await other.api.patch(path(slug, record.id), { name: 'x' })).status).toBe(404);
    expect((await other.api.delete(path(slug, record.id))).status).toBe(404);
    expect((await other.api.get(path(slug))).body.data).toEqual([]);
    expect((await member.get(path(slug))).status).toBe(403);
    expect((await member.get(path(slug, record.id))).status).toBe(403);
    expect((await member.post(path(slug), {})).status).toBe(403);
    expect((await member.patch(path(slug, record.id), { name: 'x' })).status).toBe(403);
    expect((await member.delete(path(slug, record.id))).status).toBe(403);
    expect((await app.anon.get(path(slug))).status).toBe(401);
    expect((await acct.api.get(path(slug, record.id))).body.data.name).toBe(record.name);
  });

  it.each(slugs)('%s: create, get, list, update, delete', async (slug) => {
    const record = await anyRecord(slug);
    expect((await acct.api.get(path(slug, record.id))).body.data).toEqual(record);
    const list = await acct.api.get(path(slug), {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'equals', fieldValue: record.id }] },
    });
    expect(list.body.data).toEqual([record]);
    const patched = await acct.api.patch(path(slug, record.id), { name: 'Renamed', status: 'paused' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Renamed', status: 'paused' });
    expect((await acct.api.delete(path(slug, record.id))).status).toBe(204);
    expect((await acct.api.get(path(slug, record.id))).status).toBe(404);
  });

  it.each(slugs)('%s: name is required, 1..256; unknown fields and ids are refused', async (slug) => {
    const record = await anyRecord(slug);
    expect(details(await acct.api.patch(path(slug, record.id), { name: null }))).toEqual(['name:required']);
    expect(details(await acct.api.patch(path(slug, record.id), { name: '' }))).toEqual(['name:too_short']);
    expect(details(await acct.api.patch(path(slug, record.id), { name: 'n'.repeat(257) }))).toEqual(['name:too_long']);
    expect((await acct.api.patch(path(slug, record.id), { name: 'n'.repeat(256) })).status).toBe(200);
    expect(details(await acct.api.patch(path(slug, record.id), { id: randomUUID(), colour: 'red' }))).toEqual([
      'id:read_only',
      'colour:unknown_field',
    ]);
    expect(details(await acct.api.patch(path(slug, record.id), { status: 'archived' }))).toEqual(['status:invalid_enum']);
    // Null is no value: for a status with a default, leave it out; for one without, it is required.
    const defaulted = app.running.services.registry.require(slug).fields.status!.default !== undefined;
    expect(details(await acct.api.patch(path(slug, record.id), { status: null }))).toEqual([
      `status:${defaulted ? 'not_nullable' : 'required'}`,
    ]);
  });
});

describe('email_template', () => {
  it('creates with every field and references header and footer', async () => {
    const header = await create('email_header');
    const footer = await create('email_footer');
    const t = await create('email_template', { description: 'Sent on completion', emailHeaderId: header.id, emailFooterId: footer.id });
    expect(t).toMatchObject({
      name: 'Streak done',
      description: 'Sent on completion',
      status: 'live',
      emailHeaderId: header.id,
      emailFooterId: footer.id,
      sampleEventCode: 'streak_progress_completed',
      subject: 'Well done {{$account_user.firstName}}',
      htmlContent: '{{>header}}<p>{{$helpers.currentProgressValue}} days</p>{{>footer}}',
    });
  });

  it('requires its fields', async () => {
    expect(details(await acct.api.post(path('email_template'), {})).sort()).toEqual([
      'htmlContent:required',
      'name:required',
      'sampleEventCode:required',
      'status:required',
      'subject:required',
    ]);
  });

  it.each([
    [{ description: 'd'.repeat(1025) }, 'description:too_long'],
    [{ subject: 's'.repeat(257) }, 'subject:too_long'],
    [{ subject: '' }, 'subject:too_short'],
    [{ sampleEventCode: 'order_placed' }, 'sampleEventCode:invalid_enum'],
    [{ emailHeaderId: 'nope' }, 'emailHeaderId:invalid_format'],
    [{ emailHeaderId: randomUUID() }, 'emailHeaderId:not_found'],
    [{ emailFooterId: randomUUID() }, 'emailFooterId:not_found'],
    [{ htmlContent: 42 }, 'htmlContent:invalid_type'],
  ])('refuses %j', async (over, expected) => {
    expect(details(await acct.api.post(path('email_template'), { ...BODIES.email_template!(), ...over }))).toEqual([expected]);
  });

  it('accepts a subject of 256 characters and every sample event code', async () => {
    expect((await acct.api.post(path('email_template'), { ...BODIES.email_template!(), subject: 's'.repeat(256) })).status).toBe(200);
    expect(
      (await acct.api.post(path('email_template'), { ...BODIES.email_template!(), sampleEventCode: 'mission_progress_failed' })).status,
    ).toBe(200);
  });

  it('refuses a header or footer of another account, or a footer as header', async () => {
    const foreign = await create('email_header', {}, other);
    const footer = await create('email_footer');
    expect(details(await acct.api.post(path('email_template'), { ...BODIES.email_template!(), emailHeaderId: foreign.id }))).toEqual([
      'emailHeaderId:not_found',
    ]);
    expect(details(await acct.api.post(path('email_template'), { ...BODIES.email_template!(), emailHeaderId: footer.id }))).toEqual([
      'emailHeaderId:not_found',
    ]);
  });

  it('checks Handlebars syntax of subject and htmlContent, naming the field, line and column in words', async () => {
    const res = await acct.api.post(path('email_template'), {
      ...BODIES.email_template!(),
      subject: 'Hi {{name',
      htmlContent: '<p>\n{{#if x}}\nopen\n',
    });
    expect(details(res)).toEqual(['subject:template_syntax', 'htmlContent:template_syntax']);
    expect(res.body.error.details.map((d: any) => [d.line, d.column, d.message])).toEqual([
      [1, 4, 'Line 1, column 4: This tag is never closed with }}.'],
      [2, 1, 'Line 2, column 1: {{#if}} is never closed: add {{/if}}.'],
    ]);
    const mismatch = await acct.api.post(path('email_template'), { ...BODIES.email_template!(), htmlContent: 'a\n{{#if x}}b{{/each}}' });
    expect(details(mismatch)).toEqual(['htmlContent:template_syntax']);
    expect(mismatch.body.error.details[0]).toMatchObject({
      line: 2,
      column: 1,
      message: 'Line 2, column 1: {{#if}} is closed by {{/each}}; close it with {{/if}}.',
    });
    const stray = await acct.api.post(path('email_template'), { ...BODIES.email_template!(), htmlContent: '<p>{{name}}}</p>' });
    expect(stray.body.error.details[0]).toMatchObject({ field: 'htmlContent', message: 'Line 1, column 10: Unexpected }}}; expected }}.' });

    const t = await create('email_template');
    expect(details(await acct.api.patch(path('email_template', t.id), { htmlContent: '{{{raw}}' }))).toEqual([
      'htmlContent:template_syntax',
    ]);
    expect(details(await acct.api.patch(path('email_template', t.id), { subject: '{{/if}}' }, {}, { languageCode: 'fr' }))).toEqual([
      'subject:template_syntax',
    ]);
    const ok = await acct.api.patch(path('email_template', t.id), {
      htmlContent: '{{#each items}}{{this}}{{else}}none{{/each}} {{{raw}}}',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses unknown partials and helpers at create and update, naming the field, the name and the line', async () => {
    const res = await acct.api.post(path('email_template'), {
      ...BODIES.email_template!(),
      subject: 'Hi {{shout $account_user.firstName}}',
      htmlContent: '{{>header}}\n<p>\n  {{>nav}}</p>{{>footer}}',
    });
    expect(details(res)).toEqual(['subject:unknown_helper', 'htmlContent:unknown_partial']);
    expect(res.body.error.details).toMatchObject([
      { line: 1, column: 4, message: 'Line 1, column 4: Unknown helper "shout"; the helpers are each, if, unless, lookup, with.' },
      { line: 3, column: 3, message: 'Line 3, column 3: Unknown partial "nav"; the partials here are header, footer.' },
    ]);
    // Partials place the header and footer in the body only; a misused built-in helper fails as surely as an unknown one.
    expect(details(await acct.api.post(path('email_template'), { ...BODIES.email_template!(), subject: '{{>header}} news' }))).toEqual([
      'subject:unknown_partial',
    ]);
    expect(
      details(await acct.api.post(path('email_template'), { ...BODIES.email_template!(), htmlContent: '{{#each}}x{{/each}}' })),
    ).toEqual(['htmlContent:helper_usage']);

    const t = await create('email_template');
    const patched = await acct.api.patch(
      path('email_template', t.id),
      { htmlContent: '<p>{{#if a}}{{else}}{{shout b}}{{/if}}</p>' },
      {},
      { languageCode: 'fr' },
    );
    expect(details(patched)).toEqual(['htmlContent:unknown_helper']);
    expect((await acct.api.get(path('email_template', t.id), { languageCode: 'fr' })).body.data.htmlContent).toBe(t.htmlContent);
    // Inline partials, partial blocks (which have a fallback), sections and the built-in helpers render.
    const ok = await acct.api.patch(path('email_template', t.id), {
      htmlContent:
        '{{#*inline "cta"}}<a>go</a>{{/inline}}{{>cta}}{{#> nav}}no nav{{/nav}}{{#$helpers}}{{remainingValue}}{{/$helpers}}{{lookup $account "name"}}{{#with $account}}{{name}}{{/with}}',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses inline partials that place themselves or place each other out of all measure', async () => {
    const refused = async (htmlContent: string) => {
      const res = await acct.api.post(path('email_template'), { ...BODIES.email_template!(), htmlContent });
      expect(details(res), htmlContent).toEqual(['htmlContent:helper_usage']);
      return res.body.error.details[0].message as string;
    };
    expect(await refused('{{#*inline "p"}}{{>p}}{{/inline}}{{>p}}')).toBe(
      'Line 1, column 1: The partial "p" places itself, so it never ends.',
    );
    expect(await refused('{{#*inline "a"}}{{>b}}{{/inline}}\n{{#*inline "b"}}{{#if x}}{{>a}}{{/if}}{{/inline}}{{>a}}')).toContain(
      'places itself',
    );
    // Ten placing ten placing ten…: a billion copies of a short text.
    const levels = ['{{#*inline "l0"}}ten chars.{{/inline}}'];
    for (let i = 1; i <= 9; i++) levels.push(`{{#*inline "l${i}"}}${`{{>l${i - 1}}}`.repeat(10)}{{/inline}}`);
    expect(await refused(`${levels.join('\n')}\n{{>l9}}`)).toBe(
      'Line 11, column 1: Partials are placed more than 1000 times over here; place fewer within each other.',
    );
    // Placed a few times each, partials within partials are fine.
    const ok = await acct.api.post(path('email_template'), {
      ...BODIES.email_template!(),
      htmlContent: `${levels.slice(0, 3).join('')}{{>l2}}{{>l1}}`,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses unknown helpers and any partial in the other templated texts', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['email_header', { htmlContent: '<h1>{{>footer}}</h1>' }, 'htmlContent:unknown_partial'],
      ['email_footer', { htmlContent: '<p>{{upper $account.name}}</p>' }, 'htmlContent:unknown_helper'],
      ['push_notification_template', { title: '{{>header}}' }, 'title:unknown_partial'],
      ['sms_template', { body: '{{shout $account.name}}' }, 'body:unknown_helper'],
      [
        'chat_message_template',
        { bodyParameters: ['{{$account.name}}', '{{format (upper $account.name)}}'] },
        'bodyParameters[1]:unknown_helper',
      ],
    ];
    for (const [slug, over, expected] of cases) {
      expect(details(await acct.api.post(path(slug), { ...BODIES[slug]!(), ...over })), slug).toContain(expected);
      const record = await create(slug);
      expect(details(await acct.api.patch(path(slug, record.id), over)), slug).toContain(expected);
    }
  });

  it('stores subject and htmlContent per language', async () => {
    const t = await create('email_template');
    const fr = await acct.api.patch(
      path('email_template', t.id),
      { subject: 'Bravo {{$account_user.firstName}}' },
      {},
      { languageCode: 'fr' },
    );
    expect(fr.status, JSON.stringify(fr.body)).toBe(200);
    expect(fr.body.data.subject).toBe('Bravo {{$account_user.firstName}}');
    expect((await acct.api.get(path('email_template', t.id), { languageCode: 'fr' })).body.data).toMatchObject({
      subject: 'Bravo {{$account_user.firstName}}',
      htmlContent: t.htmlContent,
    });
    expect((await acct.api.get(path('email_template', t.id))).body.data.subject).toBe(t.subject);
    expect((await acct.api.get(path('email_template', t.id), { languageCode: 'de' })).body.data.subject).toBe(t.subject);
  });

  it('drops a deleted header or footer reference', async () => {
    const header = await create('email_header');
    const footer = await create('email_footer');
    const t = await create('email_template', { emailHeaderId: header.id, emailFooterId: footer.id });
    expect((await acct.api.delete(path('email_header', header.id))).status).toBe(204);
    expect((await acct.api.get(path('email_template', t.id))).body.data).toMatchObject({ emailHeaderId: null, emailFooterId: footer.id });
    expect((await acct.api.delete(path('email_footer', footer.id))).status).toBe(204);
    expect((await acct.api.get(path('email_template', t.id))).body.data).toMatchObject({ emailHeaderId: null, emailFooterId: null });
  });
});

describe('email_theme', () => {
  it('stores only the CSS added to the default stylesheet', async () => {
    const theme = await create('email_theme', { description: 'Brand' });
    expect(theme.style).toBeNull();
    const custom = await create('email_theme', { style: '.content { color: red; }' });
    expect(custom.style).toBe('.content { color: red; }');
    const reset = await acct.api.patch(path('email_theme', custom.id), { style: null });
    expect(reset.body.data.style).toBeNull();
  });

  it('requires name and status; name is unique per account (409)', async () => {
    expect(details(await acct.api.post(path('email_theme'), {})).sort()).toEqual(['name:required', 'status:required']);
    await create('email_theme', { name: 'Brand' });
    const dup = await acct.api.post(path('email_theme'), { name: 'Brand', status: 'draft' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'conflict', details: [{ field: 'name', code: 'duplicate' }] });
    const second = await create('email_theme', { name: 'Brand 2' });
    expect((await acct.api.patch(path('email_theme', second.id), { name: 'Brand' })).status).toBe(409);
    await create('email_theme', { name: 'Brand' }, other);
  });
});

describe('email_header and email_footer', () => {
  it.each(['email_header', 'email_footer'])('%s: defaults, required htmlContent, syntax, languages', async (slug) => {
    const rec = await create(slug);
    expect(rec.status).toBe('live');
    expect(details(await acct.api.post(path(slug), { name: 'x' }))).toEqual(['htmlContent:required']);
    expect(details(await acct.api.post(path(slug), { name: 'x', htmlContent: '{{#each}}' }))).toEqual(['htmlContent:template_syntax']);
    expect(details(await acct.api.post(path(slug), { name: 'x', htmlContent: 'x', description: 'no such field' }))).toEqual([
      'description:unknown_field',
    ]);
    await acct.api.patch(path(slug, rec.id), { htmlContent: '<p>Hallo</p>' }, {}, { languageCode: 'de' });
    expect((await acct.api.get(path(slug, rec.id), { languageCode: 'de' })).body.data.htmlContent).toBe('<p>Hallo</p>');
    expect((await acct.api.get(path(slug, rec.id))).body.data.htmlContent).toBe(rec.htmlContent);
  });
});

describe('push_notification_template', () => {
  it('creates with image and data', async () => {
    const t = await create('push_notification_template', {
      imageUrl: 'https://cdn.example.com/i.png',
      data: { screen: 'rewards', streakId: '{{x}}' },
    });
    expect(t).toMatchObject({ status: 'live', imageUrl: 'https://cdn.example.com/i.png', data: { screen: 'rewards', streakId: '{{x}}' } });
  });

  it.each([
    [{ title: 't'.repeat(257) }, 'title:too_long'],
    [{ body: 'b'.repeat(1025) }, 'body:too_long'],
    [{ title: 'Hi {{' }, 'title:template_syntax'],
    [{ body: '{{#if a}}' }, 'body:template_syntax'],
    [{ imageUrl: 'ftp://cdn.example.com/i.png' }, 'imageUrl:invalid_format'],
    [{ data: { from: 'x' } }, 'data.from:invalid'],
    [{ data: { 'google.c': 'x' } }, 'data.google.c:invalid'],
    [{ data: { n: 1 } }, 'data.n:invalid_type'],
    // A key JSON can name and a plain object cannot hold: refused, not dropped without a word.
    [{ data: JSON.parse('{"__proto__":"s","k":"v"}') }, 'data.__proto__:invalid'],
    [{ data: ['x'] }, 'data:invalid_type'],
  ])('refuses %j', async (over, expected) => {
    expect(details(await acct.api.post(path('push_notification_template'), { ...BODIES.push_notification_template!(), ...over }))).toEqual([
      expected,
    ]);
  });

  it('requires title and body', async () => {
    expect(details(await acct.api.post(path('push_notification_template'), { name: 'x' })).sort()).toEqual([
      'body:required',
      'title:required',
    ]);
  });
});

describe('sms_template', () => {
  it('takes a body of up to 1600 characters with valid syntax', async () => {
    expect((await acct.api.post(path('sms_template'), { name: 'x', body: 'b'.repeat(1600) })).status).toBe(200);
    expect(details(await acct.api.post(path('sms_template'), { name: 'x', body: 'b'.repeat(1601) }))).toEqual(['body:too_long']);
    expect(details(await acct.api.post(path('sms_template'), { name: 'x' }))).toEqual(['body:required']);
    const bad = await acct.api.post(path('sms_template'), { name: 'x', body: 'line 1\nline 2 {{oops}}}' });
    expect(details(bad)).toEqual(['body:template_syntax']);
    expect(bad.body.error.details[0].line).toBe(2);
  });
});

describe('chat_message_template', () => {
  it('defaults bodyParameters and checks each as a template', async () => {
    const t = await create('chat_message_template', { bodyParameters: undefined });
    expect(t.bodyParameters).toEqual([]);
    expect(t).toMatchObject({ templateName: 'streak_reminder', templateLanguageCode: 'en_US', status: 'live' });
    const bad = await acct.api.post(path('chat_message_template'), {
      ...BODIES.chat_message_template!(),
      bodyParameters: ['{{ok}}', '{{bad'],
    });
    expect(details(bad)).toEqual(['bodyParameters[1]:template_syntax']);
    const patched = await acct.api.patch(path('chat_message_template', t.id), {
      bodyParameters: ['{{$account_user.firstName}}', '{{$helpers.remainingValue}}'],
    });
    expect(patched.body.data.bodyParameters).toEqual(['{{$account_user.firstName}}', '{{$helpers.remainingValue}}']);
  });

  it.each([
    [{ templateName: 'Streak Reminder' }, 'templateName:invalid_format'],
    [{ templateName: 'a'.repeat(513) }, 'templateName:too_long'],
    [{ templateLanguageCode: 'english-please' }, 'templateLanguageCode:invalid_format'],
    [{ bodyParameters: 'x' }, 'bodyParameters:invalid_type'],
    [{ bodyParameters: [''] }, 'bodyParameters[0]:too_short'],
    [{ bodyParameters: null }, 'bodyParameters:not_nullable'],
    [{ templateName: undefined }, 'templateName:required'],
  ])('refuses %j', async (over, expected) => {
    expect(details(await acct.api.post(path('chat_message_template'), { ...BODIES.chat_message_template!(), ...over }))).toEqual([
      expected,
    ]);
  });
});

describe('notification rules', () => {
  it.each(PAIRS)('links %s with %s', async (provider, templateSlug) => {
    const integration = await create(provider);
    const template = await create(templateSlug);
    const res = await rule(provider, integration.id, template.id, { description: 'Tell them' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Rule',
      description: 'Tell them',
      status: 'draft',
      eventCodes: ['streak_progress_completed'],
      integrationProvider: provider,
      integrationId: integration.id,
      templateId: template.id,
    });
  });

  it('requires its fields and checks enums and event codes', async () => {
    expect(details(await acct.api.post(path('notification'), {})).sort()).toEqual([
      'eventCodes:required',
      'integrationId:required',
      'integrationProvider:required',
      'name:required',
      'templateId:required',
    ]);
    const sms = await create('cloud_sms');
    const tpl = await create('sms_template');
    expect(details(await rule('carrier_pigeon', sms.id, tpl.id))).toEqual(['integrationProvider:invalid_enum']);
    expect(details(await rule('cloud_sms', sms.id, tpl.id, { eventCodes: [] }))).toEqual(['eventCodes:too_few']);
    expect(details(await rule('cloud_sms', sms.id, tpl.id, { eventCodes: ['reward_issued'] }))).toEqual(['eventCodes[0]:invalid_enum']);
    expect(
      details(await rule('cloud_sms', sms.id, tpl.id, { eventCodes: ['challenge_progress_failed', 'challenge_progress_failed'] })),
    ).toEqual(['eventCodes[1]:duplicate']);
    expect(details(await rule('cloud_sms', sms.id, tpl.id, { description: 'd'.repeat(1025) }))).toEqual(['description:too_long']);
    expect(details(await rule('cloud_sms', 'x', tpl.id))).toEqual(['integrationId:invalid_format']);
  });

  it('requires the integration of the provider and a template of its kind, in the account', async () => {
    const email = await create('service_email');
    const sms = await create('cloud_sms');
    const smsTpl = await create('sms_template');
    const emailTpl = await create('email_template');
    const foreignSms = await create('cloud_sms', {}, other);
    expect(details(await rule('cloud_sms', email.id, smsTpl.id))).toEqual(['integrationId:not_found']);
    expect(details(await rule('cloud_sms', sms.id, emailTpl.id))).toEqual(['templateId:not_found']);
    const crossed = await rule('service_email', sms.id, smsTpl.id);
    expect(details(crossed)).toEqual(['integrationId:not_found', 'templateId:not_found']);
    expect(crossed.body.error.message).toBe(
      'The rule references records that do not exist, or are not of the kind its provider sends with.',
    );
    // Each message names what the id is and what the rule needs, with the article read aloud.
    expect(crossed.body.error.details.map((d: { message: string }) => d.message)).toEqual([
      `${sms.id} is a cloud_sms integration; a service_email rule sends through a service_email integration.`,
      `${smsTpl.id} is an sms_template; a service_email rule sends an email_template.`,
    ]);
    expect((await rule('cloud_sms', sms.id, emailTpl.id)).body.error.details[0].message).toBe(
      `${emailTpl.id} is an email_template; a cloud_sms rule sends an sms_template.`,
    );
    expect(details(await rule('cloud_sms', foreignSms.id, smsTpl.id))).toEqual(['integrationId:not_found']);
    const unknown = randomUUID();
    const none = await rule('cloud_sms', randomUUID(), unknown);
    expect(details(none)).toEqual(['integrationId:not_found', 'templateId:not_found']);
    expect(none.body.error.details[1].message).toBe(`No sms_template record with id ${unknown}; a cloud_sms rule sends an sms_template.`);
  });

  it('is live only over a live integration and template (409), which may be paused later', async () => {
    const sms = await create('cloud_sms');
    const tpl = await create('sms_template', { status: 'draft' });
    const refused = await rule('cloud_sms', sms.id, tpl.id, { status: 'live' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'conflict',
      details: [
        { field: 'integrationId', code: 'not_live', message: `The cloud_sms integration ${sms.id} is draft.` },
        { field: 'templateId', code: 'not_live', message: `The sms_template ${tpl.id} is draft.` },
      ],
    });
    expect((await acct.api.get(path('notification'))).body.data.filter((r: any) => r.templateId === tpl.id)).toEqual([]);

    const r = (await rule('cloud_sms', sms.id, tpl.id)).body.data;
    expect(r.status).toBe('draft');
    expect((await acct.api.patch(path('cloud_sms', sms.id), { status: 'live' })).status).toBe(200);
    const goLive = await acct.api.patch(path('notification', r.id), { status: 'live' });
    expect(goLive.status).toBe(409);
    expect(goLive.body.error.details.map((d: { field: string }) => d.field)).toEqual(['templateId']);
    expect((await acct.api.get(path('notification', r.id))).body.data.status).toBe('draft');
    expect((await acct.api.patch(path('sms_template', tpl.id), { status: 'live' })).status).toBe(200);
    expect((await acct.api.patch(path('notification', r.id), { status: 'live' })).status).toBe(200);

    // A live rule moved onto a paused template is refused; pausing the integration it uses is not, and the rule can still be edited.
    const paused = await create('sms_template', { status: 'paused' });
    expect((await acct.api.patch(path('notification', r.id), { templateId: paused.id })).status).toBe(409);
    expect((await acct.api.patch(path('cloud_sms', sms.id), { status: 'paused' })).status).toBe(200);
    const renamed = await acct.api.patch(path('notification', r.id), { name: 'Still live', status: 'live' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });

  it('sees an integration change that commits while the rule goes live', async () => {
    const sms = await create('cloud_sms', { status: 'live' });
    const tpl = await create('sms_template');
    const r = (await rule('cloud_sms', sms.id, tpl.id)).body.data;
    const trx = await app.db.transaction();
    try {
      await trx('cloud_sms').where({ id: sms.id }).update({ status: 'draft' });
      const pending = acct.api.patch(path('notification', r.id), { status: 'live' });
      // The rule's check waits for the integration's row lock (it reads the row FOR SHARE).
      for (let i = 0; i < 100; i++) {
        const { rows } = await app.db.raw(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (rows[0].n > 0) break;
        await new Promise((ok) => setTimeout(ok, 20));
      }
      await trx.commit();
      expect((await pending).status).toBe(409);
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    expect((await acct.api.get(path('notification', r.id))).body.data.status).toBe('draft');
  });

  it('re-checks the references when an update changes them', async () => {
    const sms = await create('cloud_sms');
    const smsTpl = await create('sms_template');
    const email = await create('service_email', { status: 'live' });
    const emailTpl = await create('email_template');
    const r = (await rule('cloud_sms', sms.id, smsTpl.id)).body.data;
    expect(details(await acct.api.patch(path('notification', r.id), { integrationProvider: 'service_email' }))).toEqual([
      'integrationId:not_found',
      'templateId:not_found',
    ]);
    expect(details(await acct.api.patch(path('notification', r.id), { templateId: emailTpl.id }))).toEqual(['templateId:not_found']);
    const moved = await acct.api.patch(path('notification', r.id), {
      integrationProvider: 'service_email',
      integrationId: email.id,
      templateId: emailTpl.id,
      status: 'live',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({
      integrationProvider: 'service_email',
      integrationId: email.id,
      templateId: emailTpl.id,
      status: 'live',
    });
    expect(details(await acct.api.patch(path('notification', r.id), { eventCodes: [] }))).toEqual(['eventCodes:too_few']);
  });

  it.each(PAIRS)('goes when its %s integration is deleted', async (provider, templateSlug) => {
    const integration = await create(provider);
    const otherIntegration = await create(provider);
    const template = await create(templateSlug);
    const doomed = (await rule(provider, integration.id, template.id)).body.data;
    const kept = (await rule(provider, otherIntegration.id, template.id)).body.data;
    expect((await acct.api.delete(path(provider, integration.id))).status).toBe(204);
    expect((await acct.api.get(path('notification', doomed.id))).status).toBe(404);
    expect((await acct.api.get(path('notification', kept.id))).status).toBe(200);
    expect((await acct.api.get(path(templateSlug, template.id))).status).toBe(200);
  });

  it.each(PAIRS)('goes when its %s template (%s) is deleted', async (provider, templateSlug) => {
    const integration = await create(provider);
    const template = await create(templateSlug);
    const otherTemplate = await create(templateSlug);
    const doomed = (await rule(provider, integration.id, template.id)).body.data;
    const kept = (await rule(provider, integration.id, otherTemplate.id)).body.data;
    expect((await acct.api.delete(path(templateSlug, template.id))).status).toBe(204);
    expect((await acct.api.get(path('notification', doomed.id))).status).toBe(404);
    expect((await acct.api.get(path('notification', kept.id))).status).toBe(200);
    expect((await acct.api.get(path(provider, integration.id))).status).toBe(200);
  });
});

describe('notification_log', () => {
  const LOGS = path('notification_log');

  async function seedLog(account: TestAccount, over: Record<string, unknown> = {}) {
    const [log] = await app
      .db('notification_log')
      .insert({ account_id: account.accountId, notification_id: randomUUID(), event_log_id: randomUUID(), channel: 'sms', ...over })
      .returning('*');
    return log;
  }

  it('lists and gets logs', async () => {
    const sent = await seedLog(acct, {
      owned_by_id: randomUUID(),
      notification_log_status: 'sent',
      provider_message_id: 'msg-1',
      attempt_count: 1,
    });
    const failed = await seedLog(acct, {
      notification_log_status: 'failed',
      error: 'provider said no',
      attempt_count: 3,
      channel: 'email',
    });
    const got = await acct.api.get(`${LOGS}/${sent.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({
      id: sent.id,
      notificationId: sent.notification_id,
      eventLogId: sent.event_log_id,
      ownedById: sent.owned_by_id,
      channel: 'sms',
      notificationLogStatus: 'sent',
      providerMessageId: 'msg-1',
      error: null,
      attemptCount: 1,
      createdAt: sent.created_at.toISOString(),
      updatedAt: sent.updated_at.toISOString(),
    });
    const list = await acct.api.get(LOGS, {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'notificationLogStatus', operator: 'equals', fieldValue: 'failed' }] },
    });
    expect(list.body.data).toMatchObject([{ id: failed.id, error: 'provider said no', attemptCount: 3, channel: 'email' }]);
    const bad = await acct.api.get(LOGS, {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'notificationLogStatus', operator: 'equals', fieldValue: 'lost' }] },
    });
    expect(bad.status).toBe(400);
  });

  it('is read-only, API keys only, and per account', async () => {
    const log = await seedLog(acct);
    expect((await acct.api.post(LOGS, { channel: 'sms' })).status).toBe(405);
    expect((await acct.api.patch(`${LOGS}/${log.id}`, { error: 'x' })).status).toBe(405);
    expect((await acct.api.delete(`${LOGS}/${log.id}`)).status).toBe(405);
    expect((await member.get(LOGS)).status).toBe(403);
    expect((await member.get(`${LOGS}/${log.id}`)).status).toBe(403);
    expect((await other.api.get(`${LOGS}/${log.id}`)).status).toBe(404);
    expect((await other.api.get(LOGS)).body.data).toEqual([]);
  });
});
