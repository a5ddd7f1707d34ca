import type { SNSClient } from '@aws-sdk/client-sns';
import type { SocialMessagingClient } from '@aws-sdk/client-socialmessaging';
import { awsAccepted, awsFailure, boundedCall, SEND_TIMEOUT_MS, type Sent, sentAs } from './errors.js';

/** The integration's own cloud credentials (cloud_sms, cloud_chat), the secret opened from its sealed column. */
export interface CloudCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/**
 * The SDKs are loaded with an account's first message, not at start: the service's start-up would
 * otherwise load them whether or not any account sends SMS or chat. Clients are kept per integration
 * version; this bounds how many stay open.
 */
const MAX_CLIENTS = 200;

interface Destroyable {
  destroy(): void;
}

/** A small cache of SDK clients by key, closing the ones it drops. */
class Clients<C extends Destroyable> {
  private readonly map = new Map<string, C>();

  constructor(private readonly make: (credentials: CloudCredentials) => C) {}

  get(key: string, credentials: CloudCredentials): C {
    let client = this.map.get(key);
    if (!client) {
      if (this.map.size >= MAX_CLIENTS) {
        const [oldest, dropped] = this.map.entries().next().value!;
        this.map.delete(oldest);
        dropped.destroy();
      }
      client = this.make(credentials);
      this.map.set(key, client);
    }
    return client;
  }
}

const clientConfig = (c: CloudCredentials, endpoint: string | undefined) => ({
  region: c.region,
  endpoint,
  credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
  // The sender retries on its own schedule; the SDK's in-process retries would hold the lease.
  maxAttempts: 1,
  requestHandler: { connectionTimeout: 10_000, requestTimeout: SEND_TIMEOUT_MS, throwOnRequestTimeout: true },
});

/** SMS through SNS Publish to a phone number, with the integration's sender id. */
export class SmsTransport {
  private clients: Clients<SNSClient> | undefined;

  constructor(private readonly endpoint: string | undefined) {}

  async send(key: string, credentials: CloudCredentials, input: { phoneNumber: string; senderId: string; body: string }): Promise<Sent> {
    const { PublishCommand, SNSClient } = await import('@aws-sdk/client-sns');
    this.clients ??= new Clients((c) => new SNSClient(clientConfig(c, this.endpoint)));
    try {
      const out = await this.clients.get(key, credentials).send(
        new PublishCommand({
          PhoneNumber: input.phoneNumber,
          Message: input.body,
          MessageAttributes: { 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: input.senderId } },
        }),
        boundedCall(),
      );
      return sentAs(out.MessageId, 'SNS Publish');
    } catch (err) {
      const accepted = awsAccepted(err, 'SNS Publish');
      if (accepted) return accepted;
      throw awsFailure(err);
    }
  }
}

/** Chat through End User Messaging Social: a pre-approved template message with its body parameters. */
export class ChatTransport {
  private clients: Clients<SocialMessagingClient> | undefined;

  constructor(private readonly endpoint: string | undefined) {}

  async send(
    key: string,
    credentials: CloudCredentials,
    input: { phoneNumberId: string; to: string; templateName: string; languageCode: string; bodyParameters: string[] },
  ): Promise<Sent> {
    // The message is the chat platform's own message object, passed through as bytes.
    const message = {
      messaging_product: 'whatsapp',
      to: input.to,
      type: 'template',
      template: {
        name: input.templateName,
        language: { code: input.languageCode },
        components: input.bodyParameters.length
          ? [{ type: 'body', parameters: input.bodyParameters.map((text) => ({ type: 'text', text })) }]
          : [],
      },
    };
    const { SendWhatsAppMessageCommand, SocialMessagingClient } = await import('@aws-sdk/client-socialmessaging');
    this.clients ??= new Clients((c) => new SocialMessagingClient(clientConfig(c, this.endpoint)));
    try {
      const out = await this.clients.get(key, credentials).send(
        new SendWhatsAppMessageCommand({
          originationPhoneNumberId: input.phoneNumberId,
          message: new TextEncoder().encode(JSON.stringify(message)),
          metaApiVersion: 'v20.0',
        }),
        boundedCall(),
      );
      return sentAs(out.messageId, 'SendWhatsAppMessage');
    } catch (err) {
      const accepted = awsAccepted(err, 'SendWhatsAppMessage');
      if (accepted) return accepted;
      throw awsFailure(err);
    }
  }
}
