import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { sendDueNotifications } from '../../src/notifications/sender.js';
import type { TestAccount, TestApp } from '../support/harness.js';

/** The service clock of the tests: logs are stamped relative to it, sends are driven with explicit times. */
export const NOW = new Date('2026-12-10T12:00:00.000Z');
export const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

export const path = (slug: string, id?: string) => `/schema/${slug}/record${id ? `/${id}` : ''}`;

export async function create(acct: TestAccount, slug: string, body: Record<string, unknown>, query?: Record<string, unknown>) {
  const res = await acct.api.request('POST', path(slug), { body, query });
  expect(res.status, `${slug}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data as Record<string, any>;
}

let seq = 0;
/** Posts a log through the API (so its events are the engine's own) and returns the response. */
export async function postLog(acct: TestAccount, slug: 'streak_log' | 'challenge_log' | 'mission_log', body: Record<string, unknown>) {
  const res = await acct.api.post(path(slug), {
    activityId: 'visit',
    uniqueIdentifier: `n-${++seq}`,
    activityAt: at(-3_600_000).toISOString(),
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<string, any>;
}

/** The member's event_log rows, oldest first. */
export async function eventsOf(app: TestApp, memberId: string) {
  return app.db('event_log').where({ owned_by_id: memberId }).orderBy('created_at', 'asc');
}

/**
 * What the dispatcher would write for a rule and an event: a pending notification_log row, due now.
 * Returns its id.
 */
export async function queue(
  app: TestApp,
  rule: { id: string; integrationProvider: string },
  event: Record<string, any>,
  dueAt = NOW,
): Promise<string> {
  const channel = { service_email: 'email', push_cloud_messaging: 'push', cloud_sms: 'sms', cloud_chat: 'chat' }[rule.integrationProvider]!;
  const [row] = await app
    .db('notification_log')
    .insert({
      account_id: event.account_id,
      notification_id: rule.id,
      event_log_id: event.id,
      owned_by_id: event.owned_by_id,
      channel,
      next_attempt_at: dueAt,
    })
    .returning('id');
  return row.id as string;
}

export const logRow = (app: TestApp, id: string) => app.db('notification_log').where({ id }).first();

export const send = (app: TestApp, when: Date = NOW, limit = 50) => sendDueNotifications(app.running.services, when, limit);

export interface Captured {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP server standing in for a provider: records every request and answers with the handler. */
export async function startProvider(handler: (req: Captured, res: ServerResponse) => void | Promise<void>) {
  const requests: Captured[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const captured = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(captured);
      void Promise.resolve(handler(captured, res)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
