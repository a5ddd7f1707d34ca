import {
  applyCodeLink,
  currentChallenge,
  currentMission,
  fill,
  missionTasks,
  numberFormat,
  type Points,
  pointsName,
  pointsText,
  referralLink,
  referralOffer,
  type RewardLog,
  rewardView,
  streakView,
  type Strings,
  takesPart,
  tierTitle,
  tierView,
  toNextTier,
} from '@loyalty/view-model';
import { useEffect, useState } from 'preact/hooks';
import type { Counted, OrderData, OrderFacts, OrderView } from './load.js';
import { type Words, wordsFor } from './words.js';

interface Ctx {
  t: Strings;
  w: Words;
  lang: string;
  n: Intl.NumberFormat;
}

/** How often, and how many times, the block asks again while the order's webhook has not reached the app. */
export const WAIT_MS = 3000;
export const WAIT_TRIES = 10;

/**
 * The block on the thank-you and order status pages: what this order earned, an invitation for a
 * guest, or a note while the order is on its way to the app. A failed load shows nothing: a buyer
 * who has just paid should not meet an error about a loyalty program.
 */
export function OrderBlock({
  load,
  lang,
  accountUrl,
  storefrontUrl,
}: {
  load: () => Promise<OrderView>;
  lang: string;
  accountUrl: string | undefined;
  /** The shop's storefront (`https://shop.example`), where the member's referral link leads; absent: no link. */
  storefrontUrl?: string | undefined;
}) {
  const [view, setView] = useState<OrderView | 'loading' | 'failed'>('loading');
  const [tries, setTries] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (v) => current && setView(v),
      () => current && setView('failed'),
    );
    return () => {
      current = false;
    };
  }, [tries]);
  useEffect(() => {
    if (typeof view !== 'object' || view.kind !== 'waiting' || tries + 1 >= WAIT_TRIES) return;
    const timer = setTimeout(() => setTries((n) => n + 1), WAIT_MS);
    return () => clearTimeout(timer);
  }, [view, tries]);

  const ctx: Ctx = { ...wordsFor(lang), lang, n: numberFormat(lang) };
  if (view === 'failed') return null;
  if (view === 'loading') return <s-spinner accessibilityLabel={ctx.t.loading} />;
  if (view.kind === 'guest') return <Invitation accountUrl={accountUrl} ctx={ctx} />;
  if (view.kind === 'waiting')
    return (
      <s-section heading={ctx.w.title} data-waiting>
        <s-paragraph color="subdued">{tries + 1 >= WAIT_TRIES ? ctx.w.later : ctx.w.waiting}</s-paragraph>
      </s-section>
    );
  // A test order earns nothing, and there is nothing to say about it.
  if (view.data.order.state === 'skipped') return null;
  return <Earned data={view.data} storefrontUrl={storefrontUrl} ctx={ctx} />;
}

function Invitation({ accountUrl, ctx }: { accountUrl: string | undefined; ctx: Ctx }) {
  return (
    <s-section heading={ctx.w.guestTitle} data-guest>
      <s-stack gap="base">
        <s-paragraph>{ctx.w.guestBody}</s-paragraph>
        {accountUrl && <s-button href={accountUrl}>{ctx.w.createAccount}</s-button>}
      </s-stack>
    </s-section>
  );
}

function Earned({ data, storefrontUrl, ctx }: { data: OrderData; storefrontUrl: string | undefined; ctx: Ctx }) {
  const { order, counted, rewards, points } = data;
  const returned = order.state === 'refunded' || order.state === 'cancelled';
  // Just after buying is when a shopper most readily tells a friend: their link, with what it gives both.
  const member = points?.member;
  const tier = member && tierView(points.tiers, member);
  const offer =
    points &&
    referralOffer(points.setting, ctx.t, pointsName(points.setting, ctx.t), ctx.lang, tier?.current?.earnMultiplier, data.friendGift);
  return (
    <s-section heading={ctx.w.title} data-order={order.name}>
      <s-stack gap="base">
        {returned && <s-paragraph data-returned>{ctx.w.returned}</s-paragraph>}
        {points && <PointsPart order={order} points={points} ctx={ctx} />}
        {!returned && counted.length > 0 && (
          <s-stack gap="small-200" data-counted>
            <s-heading>{ctx.w.counted}</s-heading>
            {counted.map((c) => (
              <CountedItem key={c.def.id} item={c} ctx={ctx} />
            ))}
          </s-stack>
        )}
        {rewards.length > 0 && (
          <s-stack gap="small-200" data-rewards>
            <s-heading>{ctx.w.rewards}</s-heading>
            {rewards.map((log) => (
              <RewardItem key={log.id} log={log} storefrontUrl={storefrontUrl} ctx={ctx} />
            ))}
          </s-stack>
        )}
        {offer && member?.referralCode && takesPart(member) && storefrontUrl && (
          <ReferralCard offer={offer} link={referralLink(storefrontUrl, member.referralCode)} ctx={ctx} />
        )}
      </s-stack>
    </s-section>
  );
}

/** The member's referral link to copy, with what a referral gives; the button says when it is copied (checkout has no toast). */
function ReferralCard({ offer, link, ctx: { t, w } }: { offer: string; link: string; ctx: Ctx }) {
  const [copied, setCopied] = useState(false);
  return (
    <s-stack gap="small-200" data-referral>
      <s-heading>{t.referFriend}</s-heading>
      <s-paragraph>{offer}</s-paragraph>
      <s-text-field label={t.yourLink} value={link} readOnly />
      <s-clipboard-item id="referral-link" text={link} onCopy={() => setCopied(true)} />
      <s-button commandFor="referral-link" variant="secondary">
        {copied ? w.linkCopied : t.copyLink}
      </s-button>
    </s-stack>
  );
}

function Bar({ value, max, label, ctx }: { value: number; max: number; label: string; ctx: Ctx }) {
  return (
    <s-stack gap="small-300">
      <s-text>
        {label}: {ctx.n.format(value)} / {ctx.n.format(max)}
      </s-text>
      <s-progress value={Math.min(value, max)} max={max} accessibilityLabel={label} />
    </s-stack>
  );
}

/** What the order earned in points (after the tier's multiplier), what was taken back, the balance and the way to the next tier. */
function PointsPart({ order, points, ctx }: { order: OrderFacts; points: Points; ctx: Ctx }) {
  const { t, w, lang } = ctx;
  const name = pointsName(points.setting, t);
  const amount = (n: number) => pointsText(n, name, lang);
  const member = points.member;
  const tier = member && tierView(points.tiers, member);
  return (
    <s-stack gap="small-200" data-points>
      {order.points && order.points.earned > 0 && (
        <s-text type="strong" data-earned>
          {fill(w.earned, { n: amount(order.points.earned) })}
        </s-text>
      )}
      {order.points && order.points.reversed > 0 && (
        <s-text color="subdued" data-taken-back>
          {fill(w.takenBack, { n: amount(order.points.reversed) })}
        </s-text>
      )}
      {member && <s-text data-balance>{fill(w.balance, { n: amount(member.pointsBalance) })}</s-text>}
      {member && !takesPart(member) && (
        <s-text color="subdued" data-paused>
          {t.paused}
        </s-text>
      )}
      {tier?.current && <s-badge data-tier>{tierTitle(tier.current, t)}</s-badge>}
      {tier?.next && <Bar value={tier.earned} max={tier.next.pointsThreshold} label={toNextTier(tier, name, t, lang)} ctx={ctx} />}
    </s-stack>
  );
}

/** A program the order counted for and where the member stands on it now: the run, the window's total, the tasks done. */
function CountedItem({ item, ctx }: { item: Counted; ctx: Ctx }) {
  const { t, n } = ctx;
  const { def } = item;
  const now = Date.now();
  let body;
  if (item.kind === 'streak') {
    const view = streakView(def, item.progress, now);
    body = <s-text>{view.completed ? def.eudCompletedMessage || t.completed : fill(t.inARow, { n: n.format(view.length) })}</s-text>;
  } else if (item.kind === 'challenge') {
    const progress = currentChallenge(def, item.progress, now);
    body =
      progress?.challengeProgressStatus === 'completed' ? (
        <s-text>{def.eudCompletedMessage || t.completed}</s-text>
      ) : (
        <Bar value={progress?.currentProgressValue ?? 0} max={def.completionTargetValue ?? 0} label={t[def.aggregationPeriod]} ctx={ctx} />
      );
  } else {
    const progress = currentMission(def, item.progress, now);
    const { done, rows } = missionTasks(def, progress);
    body = (
      <s-text>
        {progress?.missionProgressStatus === 'completed'
          ? def.eudCompletedMessage || t.completed
          : fill(t.tasks, { d: n.format(done), n: n.format(rows.length) })}
      </s-text>
    );
  }
  return (
    <s-stack gap="small-100" data-counted-for={def.id}>
      <s-text type="strong">{def.eudTitle}</s-text>
      {body}
    </s-stack>
  );
}

/**
 * A reward the order earned: when a held one comes, its code or store credit once issued, or that it was taken back; a
 * code with a link that opens the storefront in a new tab with it applied to the cart, for the next order.
 */
function RewardItem({ log, storefrontUrl, ctx }: { log: RewardLog; storefrontUrl: string | undefined; ctx: Ctx }) {
  const view = rewardView(log, ctx.t, ctx.lang);
  return (
    <s-stack gap="small-100" data-reward={log.id} data-status={log.rewardLogStatus}>
      <s-text type="strong">{log.eudRewardTitle}</s-text>
      <s-text color={view.kind === 'note' ? 'subdued' : 'base'}>
        {view.kind === 'code' ? view.code : view.kind === 'credit' ? view.amount : view.text}
      </s-text>
      {view.kind === 'code' && storefrontUrl && (
        <s-link href={applyCodeLink(view.code, { origin: storefrontUrl })} target="_blank" data-apply>
          {ctx.t.applyCode}
        </s-link>
      )}
    </s-stack>
  );
}
