import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import { optOut, readUnsubscribeToken } from '../../notifications/unsubscribe.js';
import type { Services } from '../../services.js';

const DONE: Record<string, { title: string; text: string }> = {
  en: { title: 'Unsubscribed', text: 'You will no longer receive these messages.' },
  es: { title: 'Suscripción cancelada', text: 'Ya no recibirás estos mensajes.' },
  fr: { title: 'Désabonnement confirmé', text: 'Vous ne recevrez plus ces messages.' },
  de: { title: 'Abgemeldet', text: 'Sie erhalten diese Nachrichten nicht mehr.' },
  'zh-CN': { title: '已退订', text: '您将不再收到这些消息。' },
  ja: { title: '配信停止しました', text: '今後これらのメッセージは届きません。' },
  pt: { title: 'Subscrição cancelada', text: 'Deixará de receber estas mensagens.' },
  it: { title: 'Disiscrizione completata', text: 'Non riceverai più questi messaggi.' },
  ko: { title: '수신 거부 완료', text: '더 이상 이 메시지를 받지 않습니다.' },
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
 * List-Unsubscribe-Post header).
 */
export function unsubscribeRoutes(router: Router, s: Services): void {
  const handle = async (ctx: RouterContext) => {
    // The route has the token, so it is never absent; '' would be refused as any malformed one is.
    const who = readUnsubscribeToken(s.config.masterKey!, ctx.params.token ?? '');
    const lang = who && (await optOut(s.db, who));
    if (!lang) return page(ctx, 404, 'en', UNKNOWN);
    page(ctx, 200, lang in DONE ? lang : 'en', DONE[lang] ?? DONE.en!);
  };
  router.get('/u/:token', handle);
  router.post('/u/:token', handle);
}
