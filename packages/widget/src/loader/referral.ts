import { REFERRAL_ATTRIBUTE, REFERRAL_CODE, REFERRAL_PARAM } from '@loyalty/view-model';

/** Where the code of the last referral link followed is kept, with when it stops counting; and, per tab session, that it was written. */
const KEY = 'loyalty-ref';
const KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** A referral code kept in the browser (`code`, for 30 days), and whether this page's link brought it new to the browser. */
export interface Referral {
  code?: string;
  followed: boolean;
}

/**
 * A referral link's code (`?loyalty_ref=`), kept for 30 days and written to a Shopify storefront's
 * cart as the hidden attribute `_loyalty_ref`, which the Shopify app reads from the order. A new
 * cart has no attributes: a code kept from an earlier visit is written again once per session.
 * Nothing here may disturb the page, so any failure (storage refused, the cart unreachable) is
 * silent, and a later page load tries again. Answers the code kept, which the widget offers a
 * guest the shop's gift for (by itself on the link's first visit).
 */
export function keepReferral(win: Window & { Shopify?: unknown }): Referral {
  try {
    const given = new URLSearchParams(win.location.search).get(REFERRAL_PARAM);
    const followed = given && REFERRAL_CODE.test(given) ? given : undefined;
    const [before, until] = (win.localStorage.getItem(KEY) ?? '').split(' ');
    const kept = before && REFERRAL_CODE.test(before) && Number(until) > Date.now() ? before : undefined;
    if (followed) win.localStorage.setItem(KEY, `${followed} ${Date.now() + KEPT_MS}`);
    const code = followed ?? kept;
    // A link followed now is written even where this session wrote a code already: the later link counts.
    if (win.Shopify && code && (followed || win.sessionStorage.getItem(KEY) !== code))
      win
        .fetch('/cart/update.js', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ attributes: { [REFERRAL_ATTRIBUTE]: code } }),
        })
        .then((res) => res.ok && win.sessionStorage.setItem(KEY, code))
        .catch(() => undefined);
    return { code, followed: followed !== undefined && followed !== kept };
  } catch {
    // Storage refused (a sandboxed frame, blocked cookies): nothing to keep or write.
    return { followed: false };
  }
}
