import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import { optOut, readUnsubscribeToken } from '../../notifications/unsubscribe.js';
import type { Channel } from '../../schema/members.js';
import type { Services } from '../../services.js';

/** The page names the channel that stopped: a member who left SMS must not read that e-mails stop. */
const DONE: Record<string, { title: string } & Record<Channel, string>> = {
  en: {
    title: 'Unsubscribed',
    email: 'You will no longer receive our emails.',
    push: 'You will no longer receive our push notifications.',
    sms: 'You will no longer receive our text messages.',
    chat: 'You will no longer receive our chat messages.',
  },
  es: {
    title: 'Suscripción cancelada',
    email: 'Ya no recibirás nuestros correos electrónicos.',
    push: 'Ya no recibirás nuestras notificaciones push.',
    sms: 'Ya no recibirás nuestros SMS.',
    chat: 'Ya no recibirás nuestros mensajes de chat.',
  },
  fr: {
    title: 'Désabonnement confirmé',
    email: 'Vous ne recevrez plus nos e-mails.',
    push: 'Vous ne recevrez plus nos notifications push.',
    sms: 'Vous ne recevrez plus nos SMS.',
    chat: 'Vous ne recevrez plus nos messages de chat.',
  },
  de: {
    title: 'Abgemeldet',
    email: 'Du erhältst keine E-Mails mehr von uns.',
    push: 'Du erhältst keine Push-Benachrichtigungen mehr von uns.',
    sms: 'Du erhältst keine SMS mehr von uns.',
    chat: 'Du erhältst keine Chat-Nachrichten mehr von uns.',
  },
  'zh-CN': {
    title: '已退订',
    email: '您将不再收到我们的电子邮件。',
    push: '您将不再收到我们的推送通知。',
    sms: '您将不再收到我们的短信。',
    chat: '您将不再收到我们的聊天消息。',
  },
  ja: {
    title: '配信停止しました',
    email: '今後、メールは届きません。',
    push: '今後、プッシュ通知は届きません。',
    sms: '今後、SMSは届きません。',
    chat: '今後、チャットメッセージは届きません。',
  },
  pt: {
    title: 'Inscrição cancelada',
    email: 'Você não receberá mais nossos e-mails.',
    push: 'Você não receberá mais nossas notificações push.',
    sms: 'Você não receberá mais nossos SMS.',
    chat: 'Você não receberá mais nossas mensagens de chat.',
  },
  it: {
    title: 'Disiscrizione completata',
    email: 'Non riceverai più le nostre e-mail.',
    push: 'Non riceverai più le nostre notifiche push.',
    sms: 'Non riceverai più i nostri SMS.',
    chat: 'Non riceverai più i nostri messaggi in chat.',
  },
  ko: {
    title: '수신 거부 완료',
    email: '더 이상 이메일을 받지 않습니다.',
    push: '더 이상 푸시 알림을 받지 않습니다.',
    sms: '더 이상 문자 메시지를 받지 않습니다.',
    chat: '더 이상 채팅 메시지를 받지 않습니다.',
  },
};
const UNKNOWN = { title: 'Link not valid', text: 'This unsubscribe link is not valid.' };

function page(ctx: Context, status: number, lang: string, { title, text }: { title: string; text: string }): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('cache-control', 'no-store');
  ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  // The texts are constants: nothing from the request is echoed into the page.
  ctx.body = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; color: #1a1c1e;"><h1 style="font-size: 1.5rem;">${title}</h1><p>${text}</p></body></html>`;
}

/**
 * The unsubscribe link of notifications (CONTRACT §11). GET records the opt-out of the channel the
 * link was sent on; POST does the same for mail clients' one-click unsubscribe (RFC 8058, the
 * List-Unsubscribe-Post header). HEAD, which link checkers send and HTTP keeps free of effects,
 * only says whether the link is valid.
 */
export function unsubscribeRoutes(router: Router, s: Services): void {
  const handle = async (ctx: RouterContext) => {
    // The route has the token, so it is never absent; '' would be refused as any malformed one is.
    const who = readUnsubscribeToken(s.config.masterKey!, ctx.params.token ?? '');
    if (ctx.method === 'HEAD')
      return who ? page(ctx, 200, 'en', { title: DONE.en!.title, text: DONE.en![who.channel] }) : page(ctx, 404, 'en', UNKNOWN);
    const lang = who && (await optOut(s.db, who));
    if (!lang) return page(ctx, 404, 'en', UNKNOWN);
    const known = lang in DONE ? lang : 'en';
    const done = DONE[known]!;
    page(ctx, 200, known, { title: done.title, text: done[who.channel] });
  };
  router.get('/u/:token', handle);
  router.post('/u/:token', handle);
}
