import { fill, type Member, pointsName, pointsText, type Reward, rewardTitle, type RewardLog } from '@loyalty/view-model';
import type { CheckoutApi } from '@shopify/ui-extensions/checkout';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MemberData } from './load.js';
import { redeemOnce, redemptionKey } from './redeem.js';
import { type Words, wordsFor } from './words.js';

/** A value the checkout keeps and changes (its signals: `value`, `subscribe`). */
export interface Signal<T> {
  readonly value: T;
  subscribe(fn: (value: T) => void): () => void;
}

/** What the block uses of the checkout's API: its discount codes and whether it takes more, its token, the buyer. */
export interface Checkout {
  discountCodes: Signal<{ code: string }[]>;
  instructions: Signal<{ discounts: { canUpdateDiscountCodes: boolean } }>;
  /** Undefined until the checkout exists on Shopify's side. */
  checkoutToken: Signal<string | undefined>;
  /** Undefined for a guest. */
  customer: Signal<{ id: string } | undefined>;
  applyDiscountCodeChange: CheckoutApi['applyDiscountCodeChange'];
}

/** The host's signal as Preact state: the block renders again when the checkout changes it. */
function useSignal<T>(signal: Signal<T>): T {
  const [value, setValue] = useState(() => signal.value);
  useEffect(() => signal.subscribe((next) => setValue(() => next)), [signal]);
  return value;
}

/** Why a reward is not in the checkout, in words, under its row. */
type Reasons = Record<string, string>;

/**
 * The block beside the discount field: the signed-in buyer's codes with Apply, and the rewards they
 * can afford with "Redeem N points and apply". Nothing for a guest, for a member the program has
 * nothing for, or when loading fails: a buyer should not meet a loyalty error mid-checkout.
 */
export function CheckoutRewards({ load, checkout, lang }: { load: () => Promise<MemberData | null>; checkout: Checkout; lang: string }) {
  const customer = useSignal(checkout.customer);
  const [data, setData] = useState<MemberData | null>(null);
  useEffect(() => {
    setData(null);
    if (!customer) return;
    let current = true;
    load().then(
      (d) => current && setData(d),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [customer?.id]);
  if (!customer || !data) return null;
  if (!data.codes.length && !data.redeemable.length) return null;
  return <Rewards key={customer.id} data={data} checkout={checkout} customerId={customer.id} lang={lang} />;
}

function Rewards({ data, checkout, customerId, lang }: { data: MemberData; checkout: Checkout; customerId: string; lang: string }) {
  const { t, w } = wordsFor(lang);
  const applied = new Set(useSignal(checkout.discountCodes).map((d) => d.code.toUpperCase()));
  const canUpdate = useSignal(checkout.instructions).discounts.canUpdateDiscountCodes;
  const checkoutToken = useSignal(checkout.checkoutToken);
  const [codes, setCodes] = useState(data.codes);
  const [member, setMember] = useState<Member | null>(data.points?.member ?? null);
  const [redeemed, setRedeemed] = useState<string[]>([]);
  const [reasons, setReasons] = useState<Reasons>({});
  // A second click lands before the re-render that disables the buttons: the ref turns it away.
  const inFlight = useRef(false);
  const [busy, setBusy] = useState<string>();
  const name = pointsName(data.points?.setting, t);
  const amount = (n: number) => pointsText(n, name, lang);
  const say = (id: string, reason: string | undefined) =>
    setReasons((all) => {
      const next = { ...all };
      delete next[id];
      return reason === undefined ? next : { ...next, [id]: reason };
    });

  async function once(id: string, work: () => Promise<void>) {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(id);
    say(id, undefined);
    try {
      await work();
    } catch {
      // The checkout's API rejected (its promise, not its error result): the row says it did not work.
      say(id, w.failed);
    } finally {
      inFlight.current = false;
      setBusy(undefined);
    }
  }

  /** Puts the code into the checkout; the checkout's refusal is its reason (its message is not for buyers: Shopify does not localise it). */
  async function apply(log: RewardLog, code: string) {
    const result = await checkout.applyDiscountCodeChange({ type: 'addDiscountCode', code });
    if (result.type === 'error') say(log.id, w.refused);
  }

  const applyCode = (log: RewardLog) => once(log.id, () => apply(log, log.couponCode!));

  // Offered only once the checkout has its token: without it, no key would make a retry safe.
  const redeem = (reward: Reward, token: string) =>
    once(reward.id, async () => {
      const outcome = await redeemOnce(data.api, reward.id, redemptionKey(token, customerId, reward.id));
      if (outcome.kind === 'short') {
        // The balance moved since it was read (another tab, a refund): the row says how much is missing now.
        const now = await data.api.me().catch(() => null);
        if (now) setMember(now);
        else say(reward.id, w.failed);
        return;
      }
      if (outcome.kind === 'failed') return say(reward.id, w.failed);
      if (outcome.pointsBalance !== undefined) setMember((m) => m && { ...m, pointsBalance: outcome.pointsBalance! });
      else await data.api.me().then(setMember, () => undefined);
      // The reward's row gives way to its reward log's, with the code applied or the reason it is not.
      setRedeemed((ids) => [...ids, reward.id]);
      setCodes((logs) => [outcome.log, ...logs.filter((l) => l.id !== outcome.log.id)]);
      if (outcome.kind === 'code') await apply(outcome.log, outcome.code);
      else say(outcome.log.id, outcome.kind === 'credit' ? w.credit : w.preparing);
    });

  return (
    <s-section heading={w.title} data-checkout-rewards>
      <s-stack gap="base">
        {!canUpdate && (
          <s-paragraph color="subdued" data-not-allowed>
            {w.notAllowed}
          </s-paragraph>
        )}
        {codes.map((log) => (
          <CodeRow
            key={log.id}
            log={log}
            applied={log.couponCode !== null && applied.has(log.couponCode.toUpperCase())}
            disabled={!canUpdate || busy !== undefined}
            loading={busy === log.id}
            reason={reasons[log.id] ?? (log.couponCode ? undefined : w.preparing)}
            onApply={() => applyCode(log)}
            w={w}
          />
        ))}
        {data.redeemable
          .filter((r) => !redeemed.includes(r.id))
          .map((reward) => {
            const short = reward.pointsCost - (member?.pointsBalance ?? 0);
            return (
              <s-stack key={reward.id} gap="small-200" data-redeem={reward.id}>
                <s-text type="strong">{rewardTitle(reward, t, lang, { points: name, currency: data.currency })}</s-text>
                {short > 0 ? (
                  <s-text color="subdued" data-reason>
                    {fill(w.short, { n: amount(short) })}
                  </s-text>
                ) : (
                  <s-button
                    disabled={!canUpdate || !checkoutToken || busy !== undefined}
                    loading={busy === reward.id}
                    onClick={() => {
                      if (checkoutToken) void redeem(reward, checkoutToken);
                    }}
                  >
                    {fill(w.redeemApply, { n: amount(reward.pointsCost) })}
                  </s-button>
                )}
                {reasons[reward.id] && (
                  <s-text color="subdued" data-reason>
                    {reasons[reward.id]}
                  </s-text>
                )}
              </s-stack>
            );
          })}
      </s-stack>
    </s-section>
  );
}

function CodeRow(props: {
  log: RewardLog;
  applied: boolean;
  disabled: boolean;
  loading: boolean;
  reason: string | undefined;
  onApply: () => void;
  w: Words;
}) {
  const { log, applied, w } = props;
  return (
    <s-stack gap="small-200" data-code={log.id}>
      <s-stack direction="inline" gap="small-200" alignItems="center">
        <s-text type="strong">{log.eudRewardTitle}</s-text>
        {log.couponCode && <s-text>{log.couponCode}</s-text>}
        {log.couponCode &&
          (applied ? (
            <s-badge>{w.applied}</s-badge>
          ) : (
            <s-button variant="secondary" disabled={props.disabled} loading={props.loading} onClick={props.onApply}>
              {w.apply}
            </s-button>
          ))}
      </s-stack>
      {props.reason && !applied && (
        <s-text color="subdued" data-reason>
          {props.reason}
        </s-text>
      )}
    </s-stack>
  );
}
