import {
  currentChallenge,
  fill,
  numberFormat,
  offersCode,
  pointsName,
  pointsText,
  type Reward,
  rewardTitle,
  type RewardLog,
  rewardView,
  storeCredit,
  streakView,
  type Strings,
  takesPart,
  tierTitle,
  tierView,
  toNextTier,
} from '@loyalty/view-model';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type CustomerData, isMember, NoAccess, type Redeemer, withCode } from './load.js';
import { type Words, wordsFor } from './words.js';

interface Ctx {
  t: Strings;
  w: Words;
  lang: string;
  n: Intl.NumberFormat;
}

const context = (lang: string): Ctx => ({ ...wordsFor(lang), lang, n: numberFormat(lang) });

type Loaded = { data: CustomerData } | 'loading' | 'failed' | 'no-access';

/** Loads on mount and on each retry; a staff member without the app's permission is told so. */
function useCustomer(load: () => Promise<CustomerData>): [Loaded, () => void] {
  const [state, setState] = useState<Loaded>('loading');
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setState('loading');
    load().then(
      (data) => current && setState({ data }),
      (err: unknown) => current && setState(err instanceof NoAccess ? 'no-access' : 'failed'),
    );
    return () => {
      current = false;
    };
  }, [attempt]);
  return [state, () => setAttempt((a) => a + 1)];
}

/** What the states other than loaded say; null once loaded. */
function Status({ state, retry, ctx }: { state: Loaded; retry: () => void; ctx: Ctx }) {
  if (state === 'loading') return <s-text color="subdued">{ctx.t.loading}</s-text>;
  if (state === 'no-access') return <s-text data-no-access>{ctx.w.noAccess}</s-text>;
  if (state === 'failed')
    return (
      <s-stack direction="inline" gap="small-200" alignItems="center" data-failed>
        <s-text tone="critical">{ctx.t.error}</s-text>
        <s-button onClick={retry}>{ctx.t.retry}</s-button>
      </s-stack>
    );
  return null;
}

/**
 * The block on the customer's details: balance and tier, streaks, challenges and codes at a glance;
 * its action opens the modal where rewards are redeemed and codes applied to the cart.
 */
export function CustomerBlock({ load, lang, open }: { load: () => Promise<CustomerData>; lang: string; open: () => void }) {
  const [state, retry] = useCustomer(load);
  const ctx = context(lang);
  return (
    <s-pos-block heading={ctx.w.title}>
      {typeof state === 'object' && (
        <s-button slot="secondary-actions" onClick={open}>
          {ctx.w.open}
        </s-button>
      )}
      <s-box padding="base">
        <s-stack gap="small-200">
          <Status state={state} retry={retry} ctx={ctx} />
          {typeof state === 'object' && <Summary data={state.data} ctx={ctx} />}
        </s-stack>
      </s-box>
    </s-pos-block>
  );
}

function Summary({ data, ctx }: { data: CustomerData; ctx: Ctx }) {
  const { t, w, n } = ctx;
  const now = Date.now();
  const codes = data.logs.filter((log) => offersCode(log));
  return (
    <>
      {!isMember(data) && <s-text data-not-member>{w.notMember}</s-text>}
      {data.points?.member && <Balance points={data.points} balance={data.points.member.pointsBalance} ctx={ctx} />}
      {data.streaks.length > 0 && (
        <s-stack gap="small-100" data-streaks>
          <s-heading>{w.streaks}</s-heading>
          {data.streaks.map((def) => {
            const view = streakView(
              def,
              data.streakProgress.find((p) => p.streakId === def.id),
              now,
            );
            return (
              <s-text key={def.id} data-streak={def.id}>
                {def.eudTitle} · {view.completed ? def.eudCompletedMessage || t.completed : fill(t.inARow, { n: n.format(view.length) })}
              </s-text>
            );
          })}
        </s-stack>
      )}
      {data.challenges.length > 0 && (
        <s-stack gap="small-100" data-challenges>
          <s-heading>{w.challenges}</s-heading>
          {data.challenges.map((def) => {
            const progress = currentChallenge(def, data.challengeProgress, now);
            return (
              <s-text key={def.id} data-challenge={def.id}>
                {def.eudTitle} ·{' '}
                {progress?.challengeProgressStatus === 'completed'
                  ? def.eudCompletedMessage || t.completed
                  : `${t[def.aggregationPeriod]}: ${n.format(progress?.currentProgressValue ?? 0)} / ${n.format(def.completionTargetValue ?? 0)}`}
              </s-text>
            );
          })}
        </s-stack>
      )}
      {codes.length > 0 && (
        <s-stack gap="small-100" data-codes>
          <s-heading>{w.codes}</s-heading>
          {codes.map((log) => (
            <s-text key={log.id} data-code={log.id}>
              {log.eudRewardTitle} · {codeText(log, ctx)}
            </s-text>
          ))}
        </s-stack>
      )}
    </>
  );
}

const codeText = (log: RewardLog, ctx: Ctx) => {
  const view = rewardView(log, ctx.t, ctx.lang);
  return view.kind === 'code' ? view.code : view.kind === 'note' ? view.text : view.amount;
};

/** The balance with the points' name, the tier and how far the next one is. */
function Balance({ points, balance, ctx }: { points: NonNullable<CustomerData['points']>; balance: number; ctx: Ctx }) {
  const { t, w, lang } = ctx;
  const name = pointsName(points.setting, t);
  const tier = points.member && tierView(points.tiers, points.member);
  return (
    <s-stack gap="small-100" data-points>
      <s-stack direction="inline" gap="small-200" alignItems="center">
        <s-text type="strong" data-balance>
          {fill(w.balance, { n: pointsText(balance, name, lang) })}
        </s-text>
        {tier?.current && <s-badge data-tier>{tierTitle(tier.current, t)}</s-badge>}
      </s-stack>
      {tier?.next && (
        <s-text color="subdued" data-next-tier>
          {toNextTier(tier, name, t, lang)}
        </s-text>
      )}
      {points.member && !takesPart(points.member) && <s-text data-paused>{w.paused}</s-text>}
    </s-stack>
  );
}

type Notice = { tone: 'success' | 'info' | 'critical'; text: string };

/**
 * The modal (pos.customer-details.action.render): the rewards the customer can redeem for points,
 * each redeemed for the customer with its code applied to the cart, and the codes issued to them,
 * each applied with one tap. Every outcome, and every refusal, is said in words.
 */
export function RedeemModal({
  load,
  lang,
  redeemer,
  apply,
}: {
  load: () => Promise<CustomerData>;
  lang: string;
  redeemer: (data: CustomerData) => Redeemer;
  apply: (code: string) => Promise<void>;
}) {
  const [state, retry] = useCustomer(load);
  const ctx = context(lang);
  return (
    <s-page heading={ctx.w.open}>
      <s-scroll-box>
        <s-box padding="base">
          <s-stack gap="base">
            <Status state={state} retry={retry} ctx={ctx} />
            {typeof state === 'object' && <Redeeming data={state.data} redeemer={redeemer} apply={apply} ctx={ctx} />}
          </s-stack>
        </s-box>
      </s-scroll-box>
    </s-page>
  );
}

function Redeeming({
  data,
  redeemer: redeemerFor,
  apply,
  ctx,
}: {
  data: CustomerData;
  redeemer: (data: CustomerData) => Redeemer;
  apply: (code: string) => Promise<void>;
  ctx: Ctx;
}) {
  const { t, w, lang } = ctx;
  const redeemer = useMemo(() => redeemerFor(data), [data]);
  // Set at the tap, before any render: a second tap of a double tap finds it and does nothing.
  const working = useRef(false);
  const [balance, setBalance] = useState(data.points?.member?.pointsBalance ?? 0);
  const [logs, setLogs] = useState(data.logs);
  const [busy, setBusy] = useState<string>();
  const [notice, setNotice] = useState<Notice>();
  const name = pointsName(data.points?.setting, t);
  const amount = (n: number) => pointsText(n, name, lang);
  const reread = () =>
    data.core.api.me().then(
      (me) => (setBalance(me.pointsBalance), me.pointsBalance),
      () => balance,
    );

  const toCart = async (code: string): Promise<Notice> => {
    try {
      await apply(code);
      return { tone: 'success', text: fill(w.applied, { code }) };
    } catch {
      return { tone: 'critical', text: fill(w.notApplied, { code }) };
    }
  };

  const run = async (id: string, work: () => Promise<Notice>) => {
    if (working.current) return;
    working.current = true;
    setBusy(id);
    setNotice(undefined);
    try {
      setNotice(await work());
    } catch {
      setNotice({ tone: 'critical', text: w.failed });
    } finally {
      setBusy(undefined);
      working.current = false;
    }
  };

  const redeem = (reward: Reward) =>
    run(reward.id, async () => {
      const outcome = await redeemer.redeem(reward.id);
      if (outcome.kind === 'failed') return { tone: 'critical', text: w.failed };
      if (outcome.kind === 'refused') {
        if (outcome.code === 'not_redeemable') return { tone: 'critical', text: w.notRedeemable };
        // The balance moved since it was read (another device, a refund): say what is missing now.
        const now = await reread();
        return { tone: 'critical', text: fill(w.notEnough, { name: name.other, n: amount(Math.max(reward.pointsCost - now, 0)) }) };
      }
      if (outcome.pointsBalance === null) void reread();
      else setBalance(outcome.pointsBalance);
      const log = await withCode(data.core, outcome.log);
      setLogs((list) => [log, ...list.filter((l) => l.id !== log.id)]);
      // Store credit is the customer's to pay with, not a code for the cart.
      if (storeCredit(log)) return { tone: 'success', text: fill(w.credited, { amount: codeText(log, ctx) }) };
      return log.couponCode ? toCart(log.couponCode) : { tone: 'info', text: w.waiting };
    });

  const codes = logs.filter((log) => offersCode(log));
  const paused = !!data.points?.member && !takesPart(data.points.member);
  return (
    <>
      {notice && <s-banner tone={notice.tone} heading={notice.text} data-notice={notice.tone} />}
      {!isMember(data) && <s-text data-not-member>{w.notMember}</s-text>}
      {data.points ? (
        <>
          {data.points.member && <Balance points={data.points} balance={balance} ctx={ctx} />}
          {data.points.rewards.length > 0 && (
            <s-section heading={t.toRedeem} data-redeem>
              <s-stack gap="small-200">
                {data.points.rewards.map((reward) => {
                  const short = reward.pointsCost - balance;
                  return (
                    <s-stack key={reward.id} direction="inline" gap="small-200" alignItems="center" data-reward={reward.id}>
                      <s-text type="strong">{rewardTitle(reward, t, lang, { points: name, currency: data.currency })}</s-text>
                      <s-text>{amount(reward.pointsCost)}</s-text>
                      <s-button
                        disabled={busy !== undefined || short > 0 || paused}
                        loading={busy === reward.id}
                        onClick={() => redeem(reward)}
                      >
                        {t.redeem}
                      </s-button>
                      {short > 0 && <s-text color="subdued">{fill(t.toGo, { n: amount(short) })}</s-text>}
                    </s-stack>
                  );
                })}
              </s-stack>
            </s-section>
          )}
        </>
      ) : (
        <s-text data-points-off>{w.pointsOff}</s-text>
      )}
      <s-section heading={w.codes} data-codes>
        <s-stack gap="small-200">
          {codes.length ? (
            codes.map((log) => (
              <s-stack key={log.id} direction="inline" gap="small-200" alignItems="center" data-code={log.id}>
                <s-text type="strong">{log.eudRewardTitle}</s-text>
                <s-text>{codeText(log, ctx)}</s-text>
                {log.couponCode && log.rewardLogStatus === 'issued' && (
                  <s-button disabled={busy !== undefined} onClick={() => run(log.id, () => toCart(log.couponCode!))}>
                    {w.apply}
                  </s-button>
                )}
              </s-stack>
            ))
          ) : (
            <s-text color="subdued">{w.noCodes}</s-text>
          )}
        </s-stack>
      </s-section>
    </>
  );
}
