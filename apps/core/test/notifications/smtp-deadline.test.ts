import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createEmailTransport } from '../../src/notifications/transports/email.js';
import { SendFailure } from '../../src/notifications/transports/errors.js';

/**
 * An SMTP server that takes a message and then trickles its reply to the end of the data, a byte
 * every 50 ms, never finishing the line: its socket is never silent, so no socket time-out fires.
 */
let server: Server;
let port: number;
const closedAt: number[] = [];
let accepted = 0;

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    let trickle: NodeJS.Timeout | undefined;
    let inData = false;
    let buffered = '';
    socket.on('close', () => {
      clearInterval(trickle);
      closedAt.push(Date.now());
    });
    socket.on('error', () => undefined);
    socket.write('220 trickle.test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (inData) {
          if (line !== '.') continue;
          inData = false;
          accepted += 1;
          trickle = setInterval(() => socket.write('2'), 50);
        } else if (/^EHLO/i.test(line)) socket.write('250 trickle.test\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
});

it('cuts an SMTP send whose server trickles its answer at the send time-out, retryably, and closes the connection', async () => {
  const config = loadConfig({ LOYALTY_EMAIL_TRANSPORT: 'smtp', LOYALTY_SMTP_URL: `smtp://127.0.0.1:${port}` });
  const transport = createEmailTransport(config, { timeoutMs: 600 });
  const started = Date.now();
  const failure = await transport
    .send({
      from: { name: 'Acme', address: 'no-reply@acme.test' },
      replyTo: undefined,
      to: 'ada@example.test',
      subject: 'Your streak',
      html: '<p>Hi</p>',
      text: 'Hi',
      unsubscribeUrl: 'https://loyalty.test/u/x',
      messageId: '<n-1@loyalty.test>',
    })
    .then(
      () => undefined,
      (err: unknown) => err,
    );
  expect(accepted).toBe(1);
  expect(failure).toBeInstanceOf(SendFailure);
  expect(failure).toMatchObject({ message: 'The SMTP server did not finish the send within 0.6 s.', permanent: false });
  const elapsed = Date.now() - started;
  expect(elapsed).toBeGreaterThanOrEqual(550);
  expect(elapsed).toBeLessThan(3_000);
  await expect.poll(() => closedAt.length, { timeout: 2_000 }).toBe(1);
  expect(closedAt[0]! - started).toBeLessThan(3_000);
});
