import { useEffect, useRef, useState } from 'preact/hooks';
import { type Strings, type Template, waitedOut } from '@loyalty/view-model';
import { CopyButton } from './views.js';

/**
 * A referred friend's gift (a one-time discount code for their first order), from the endpoint a
 * page's `referralUrl` names on the shop's own origin: `GET ?code=<referral code>` answers
 * `{offer: {title}}` (anything else: no gift), `POST {code, email}` the friend's code.
 */

/** A referral code the shop has a gift for, the gift's title, and once claimed its code and where it is applied. */
export interface Gift {
  url: string;
  ref: string;
  title: string;
  code?: string;
  applyUrl?: string;
}

/**
 * A claimed gift, beside the kept referral code (`loyalty-ref`): a later page shows it without
 * claiming again. In session storage: a code the shop has no gift for, asked about once a session.
 */
const CLAIM_KEY = 'loyalty-ref-claim';

/**
 * A GET of the shop's endpoint, or with a body a POST of it as JSON; with fetch's default
 * credentials, same-origin: the storefront's cookies go to its own origin only.
 */
const ask = (url: string | URL, body?: object) =>
  fetch(url, {
    method: body && 'POST',
    headers: { accept: 'application/json', ...(body && { 'content-type': 'application/json' }) },
    signal: AbortSignal.timeout(15_000),
    body: body && JSON.stringify(body),
  });

/**
 * The title of the gift the shop gives a friend `ref` refers; null when the shop says there is
 * none, undefined when no answer says either way (a later page asks again). The shop's guests'
 * limit (429) is waited out as its Retry-After says (`waitedOut`), twice at most.
 */
export async function giftTitle(url: string, ref: string, tries = 3): Promise<string | null | undefined> {
  try {
    const at = new URL(url, location.href);
    at.searchParams.set('code', ref);
    const res = await ask(at);
    if (--tries && (await waitedOut(res))) return giftTitle(url, ref, tries);
    if (res.status === 404) return null;
    const title = res.ok && ((await res.json()) as { offer?: { title?: unknown } } | null)?.offer?.title;
    return typeof title === 'string' && title ? title : res.ok ? null : undefined;
  } catch {
    return undefined;
  }
}

/** The gift for the referral code the browser keeps, `ref`: nothing is asked once its code is claimed. */
export async function loadGift(url: string, ref: string): Promise<Gift | null> {
  try {
    const claimed = JSON.parse(localStorage.getItem(CLAIM_KEY) ?? 'null') as Gift | null;
    if (claimed?.ref === ref) return { ...claimed, url };
    if (sessionStorage.getItem(CLAIM_KEY) === ref) return null;
    const title = await giftTitle(url, ref);
    if (title === null) sessionStorage.setItem(CLAIM_KEY, ref);
    return title ? { url, ref, title } : null;
  } catch {
    // What storage held is not a claim.
    return null;
  }
}

/** The gift's card, at the top of a guest's panel: its title, an e-mail field to claim its code, then the code to copy and apply. */
export function GiftCard({ gift, t, template }: { gift: Gift; t: Strings; template: Template }) {
  const [code, setCode] = useState(gift.code);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // Focus moves to the code once claimed here, not when a later page shows it.
  const pressed = useRef(false);
  const shown = useRef<HTMLElement>(null);
  useEffect(() => {
    if (pressed.current) shown.current?.focus();
  }, [code]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    pressed.current = true;
    setBusy(true);
    setError(undefined);
    try {
      const res = await ask(gift.url, { code: gift.ref, email: new FormData(e.currentTarget as HTMLFormElement).get('email') });
      const body = (await res.json().catch(() => null)) as { code?: unknown; applyUrl?: unknown; error?: { code?: unknown } } | null;
      if (res.ok && typeof body?.code === 'string') {
        // On the page's gift, which the panel opened again shows. The title stays the offer's.
        gift.code = body.code;
        // A link of the shop's, never a script.
        if (typeof body.applyUrl === 'string' && /^(https?:|\/)/i.test(body.applyUrl)) gift.applyUrl = body.applyUrl;
        // Shown before it is kept: storage that refuses it (full) leaves it on this page only.
        setCode(gift.code);
        localStorage.setItem(CLAIM_KEY, JSON.stringify(gift));
      } else {
        const why = body?.error?.code;
        setError(why === 'not_new_customer' ? t.giftFirstOrder : why === 'own_referral' ? t.giftOwnLink : t.giftFailed);
      }
    } catch {
      setError(t.giftFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="lw-card lw-gift" data-gift>
      <h3>{t.giftFromFriend}</h3>
      <p class="lw-earns">{gift.title}</p>
      {code ? (
        <>
          <div class="lw-code">
            <code ref={shown} tabIndex={-1}>
              {code}
            </code>
            <CopyButton text={code} label={t.copy} template={template} />
          </div>
          {gift.applyUrl && (
            <a class="lw-button" href={gift.applyUrl}>
              {t.applyCode}
            </a>
          )}
        </>
      ) : (
        <form class="lw-cards" onSubmit={submit}>
          <label for="lw-email">{t.giftAsk}</label>
          <div class="lw-code">
            <input id="lw-email" name="email" type="email" autoComplete="email" required />
            <button type="submit" class="lw-button" aria-disabled={busy}>
              {t.getCode}
            </button>
          </div>
          {error && (
            <p class="lw-alert" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
