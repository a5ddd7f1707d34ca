import { REFERRAL_ATTRIBUTE, REFERRAL_CODE, REFERRAL_PARAM } from '@loyalty/view-model';

/** Where the code of the last referral link followed is kept, with when it stops counting; and, per tab session, that it was written. */
const KEY = 'loyalty-ref';
const KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * A referral link's code (`?loyalty_ref=`), kept for 30 days and written to a Shopify storefront's
 * cart as the hidden attribute `_loyalty_ref`, which the Shopify app reads from the order. A new
 * cart has no attributes: a code kept from an earlier visit is written again once per session.
 * Nothing here may disturb the page, so any failure (storage refused, the cart unreachable) is
 * silent, and a later page load tries again.
 */
export function keepReferral(win: Window & { Shopify?: unknown }): void {
  try {
    const given = new URLSearchParams(win.location.search).get(REFERRAL_PARAM);
    if (given && REFERRAL_CODE.test(given)) win.localStorage.setItem(KEY, `${given} ${Date.now() + KEPT_MS}`);
    const [code, until] = (win.localStorage.getItem(KEY) ?? '').split(' ');
    if (!win.Shopify || !code || !REFERRAL_CODE.test(code) || !(Number(until) > Date.now())) return;
    // A link followed now is written even where this session wrote a code already: the later link counts.
    if (code !== given && win.sessionStorage.getItem(KEY) === code) return;
    win
      .fetch('/cart/update.js', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ attributes: { [REFERRAL_ATTRIBUTE]: code } }),
      })
      .then((res) => res.ok && win.sessionStorage.setItem(KEY, code))
      .catch(() => undefined);
  } catch {
    // Storage refused (a sandboxed frame, blocked cookies): nothing to keep or write.
  }
}
