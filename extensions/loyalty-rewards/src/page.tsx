import {
  applyCodeLink,
  type Board,
  boardValue,
  birthdayOf,
  bonusText,
  birthdayPoints,
  birthdayText,
  boardTitle,
  type ChallengeProgress,
  currentChallenge,
  currentMission,
  dateFormat,
  daysIn,
  type Definition,
  fill,
  type FollowOffer,
  followInto,
  keyStart,
  type Member,
  type Milestone,
  milestoneEarns,
  milestoneRows,
  type MissionProgress,
  missionTasks,
  monthNames,
  numberFormat,
  type Period,
  type Points,
  pointHistory,
  pointsExpiry,
  type PointsName,
  pointsName,
  pointsText,
  rankRows,
  type Reward,
  rewardTitle,
  participant,
  type RedeemOutcome,
  redeemInto,
  referralLink,
  referralOffer,
  type RewardLog,
  rewardView,
  saveBirthdayInto,
  type SocialNetwork,
  type Standings,
  type StreakProgress,
  streakStrip,
  streakView,
  type Strings,
  tierBoost,
  tierTitle,
  tierView,
  toNextTier,
  waysToEarn,
} from '@loyalty/view-model';
import { useEffect, useState } from 'preact/hooks';
import { hasActivity, type PageData } from './load.js';
import { type Words, wordsFor } from './words.js';

interface Ctx {
  t: Strings;
  w: Words;
  lang: string;
  n: Intl.NumberFormat;
  /** What points are called, and the shop's currency: known once the page's data is. */
  points?: PointsName;
  currency?: string;
  /** What the member's earned points are multiplied by (their tier's `earnMultiplier`). */
  multiplier?: number;
  /** The shop's storefront, where a code applies to the customer's cart; unknown when the Storefront API did not say. */
  storefrontUrl?: string;
  /** Says something briefly at the bottom of the page (Shopify's toast): that a code or the referral link was copied. */
  toast(message: string): void;
}

/** The Rewards page: loading, the member's page (or the quiet first-visit page), or an error with retry. */
export function RewardsPage({ load, lang, toast }: { load: () => Promise<PageData>; lang: string; toast(message: string): void }) {
  const [state, setState] = useState<{ data?: PageData; failed?: boolean }>({});
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setState({});
    load().then(
      (data) => current && setState({ data }),
      () => current && setState({ failed: true }),
    );
    return () => {
      current = false;
    };
  }, [attempt]);
  const ctx: Ctx = { ...wordsFor(lang), lang, n: numberFormat(lang), toast };
  return (
    <s-page heading={ctx.w.title}>
      {state.failed ? (
        <s-banner tone="critical" heading={ctx.t.error}>
          <s-button onClick={() => setAttempt((a) => a + 1)}>{ctx.t.retry}</s-button>
        </s-banner>
      ) : state.data ? (
        <Content data={state.data} ctx={ctx} />
      ) : (
        <s-spinner accessibilityLabel={ctx.t.loading} />
      )}
    </s-page>
  );
}

function Content({ data, ctx: base }: { data: PageData; ctx: Ctx }) {
  const { points } = data;
  const ctx: Ctx = {
    ...base,
    points: pointsName(points?.setting, base.t),
    currency: data.currency,
    multiplier: points?.member ? tierView(points.tiers, points.member).current?.earnMultiplier : undefined,
    storefrontUrl: data.storefrontUrl,
  };
  const now = Date.now();
  const active = hasActivity(data);
  const { w } = ctx;
  return (
    <s-stack gap="base">
      {!active && (
        <s-section heading={w.emptyTitle} data-empty>
          <s-paragraph>{w.emptyBody}</s-paragraph>
        </s-section>
      )}
      {data.points && (
        <PointsSection
          points={data.points}
          defs={[...data.streaks, ...data.challenges, ...data.missions]}
          logs={data.logs}
          api={data.api}
          storefrontUrl={data.storefrontUrl}
          friendGift={data.friendGift}
          ctx={ctx}
        />
      )}
      {data.streaks.length > 0 && (
        <s-section heading={w.streaks} data-streaks>
          {data.streaks.map((def) => (
            <StreakItem key={def.id} def={def} progress={data.streakProgress.find((p) => p.streakId === def.id)} now={now} ctx={ctx} />
          ))}
        </s-section>
      )}
      {data.challenges.length > 0 && (
        <s-section heading={w.challenges} data-challenges>
          {data.challenges.map((def) => (
            <ChallengeItem key={def.id} def={def} progress={currentChallenge(def, data.challengeProgress, now)} ctx={ctx} />
          ))}
        </s-section>
      )}
      {data.missions.length > 0 && (
        <s-section heading={w.missions} data-missions>
          {data.missions.map((def) => (
            <MissionItem key={def.id} def={def} progress={currentMission(def, data.missionProgress, now)} ctx={ctx} />
          ))}
        </s-section>
      )}
      {active && data.boards.length > 0 && (
        <s-section heading={w.leaderboards} data-leaderboards>
          {data.boards.map(({ board, standings }) => (
            <BoardItem key={board.id} board={board} standings={standings} ctx={ctx} />
          ))}
        </s-section>
      )}
      {active && (
        <s-section heading={w.rewards} data-rewards>
          {data.logs.length ? (
            data.logs.map((log) => <RewardItem key={log.id} log={log} ctx={ctx} />)
          ) : (
            <s-paragraph color="subdued">{ctx.t.empty}</s-paragraph>
          )}
        </s-section>
      )}
    </s-stack>
  );
}

function Head({ def }: { def: Definition }) {
  return (
    <>
      <s-heading>{def.eudTitle}</s-heading>
      {def.eudDescription && <s-paragraph color="subdued">{def.eudDescription}</s-paragraph>}
    </>
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

function Milestones({ list, value, ctx }: { list: Milestone[]; value: number; ctx: Ctx }) {
  if (!list.length) return null;
  return (
    <s-unordered-list data-milestones>
      {milestoneRows(list, value, true).map((m) => (
        <s-list-item key={m.id}>
          {[
            ctx.n.format(m.milestoneTargetValue),
            m.eudTitle,
            milestoneEarns(m, ctx.t, ctx.lang, { points: ctx.points, currency: ctx.currency, multiplier: ctx.multiplier }),
          ]
            .filter(Boolean)
            .join(' · ')}
          {m.reached && <s-badge>{ctx.t.reached}</s-badge>}
          {m.next && <s-badge tone="neutral">{ctx.t.next}</s-badge>}
        </s-list-item>
      ))}
    </s-unordered-list>
  );
}

const SLOT_LABEL: Record<Period, Intl.DateTimeFormatOptions> = {
  daily: { weekday: 'short' },
  weekly: { day: 'numeric', month: 'short' },
  monthly: { month: 'short' },
};

/** The run's latest periods as badges: completed, covered by a freeze, or the next one to complete. */
function Strip({ progress, period, ctx }: { progress: StreakProgress; period: Period; ctx: Ctx }) {
  const format = dateFormat(ctx.lang, { ...SLOT_LABEL[period], timeZone: 'UTC' });
  const words = { done: ctx.t.completed, frozen: ctx.t.frozen, next: ctx.t.next };
  return (
    <s-stack direction="inline" gap="small-200" data-strip>
      {streakStrip(progress, period).map((slot) => (
        <s-badge key={slot.key} tone={slot.state === 'next' ? 'neutral' : 'auto'} data-key={slot.key} data-state={slot.state}>
          {format.format(keyStart(slot.key, period))} · {words[slot.state]}
        </s-badge>
      ))}
    </s-stack>
  );
}

function StreakItem({ def, progress, now, ctx }: { def: Definition; progress: StreakProgress | undefined; now: number; ctx: Ctx }) {
  const view = streakView(def, progress, now);
  const live = progress && !view.completed && view.length > 0;
  return (
    <s-stack gap="small-200" data-streak={def.id}>
      <Head def={def} />
      <s-text type="strong">
        {view.completed ? def.eudCompletedMessage || ctx.t.completed : fill(ctx.t.inARow, { n: ctx.n.format(view.length) })}
      </s-text>
      {live && (def.maxFreezes ?? 0) > 0 && (
        <s-badge data-freezes>{fill(ctx.t.freezes, { n: ctx.n.format(progress.freezesAvailable) })}</s-badge>
      )}
      {live && <Strip progress={progress} period={def.aggregationPeriod} ctx={ctx} />}
      {!view.completed && <Bar value={view.value} max={view.target} label={ctx.t[def.aggregationPeriod]} ctx={ctx} />}
      <Milestones list={def.milestones} value={view.length} ctx={ctx} />
    </s-stack>
  );
}

function ChallengeItem({ def, progress, ctx }: { def: Definition; progress: ChallengeProgress | undefined; ctx: Ctx }) {
  const value = progress?.currentProgressValue ?? 0;
  return (
    <s-stack gap="small-200" data-challenge={def.id}>
      <Head def={def} />
      {progress?.challengeProgressStatus === 'completed' && <s-text type="strong">{def.eudCompletedMessage || ctx.t.completed}</s-text>}
      <Bar value={value} max={def.completionTargetValue ?? 0} label={ctx.t[def.aggregationPeriod]} ctx={ctx} />
      <Milestones list={def.milestones} value={value} ctx={ctx} />
    </s-stack>
  );
}

function MissionItem({ def, progress, ctx }: { def: Definition; progress: MissionProgress | undefined; ctx: Ctx }) {
  const { done, rows } = missionTasks(def, progress);
  return (
    <s-stack gap="small-200" data-mission={def.id}>
      <Head def={def} />
      <s-text type="strong">
        {progress?.missionProgressStatus === 'completed'
          ? def.eudCompletedMessage || ctx.t.completed
          : fill(ctx.t.tasks, { d: ctx.n.format(done), n: ctx.n.format(rows.length) })}
      </s-text>
      <s-unordered-list data-tasks>
        {rows.map((task) => (
          <s-list-item key={task.id} data-complete={task.complete}>
            {ctx.n.format(task.value)}/{ctx.n.format(task.targetValue)} · {task.eudTitle}
            {task.complete && <s-badge>{ctx.t.completed}</s-badge>}
          </s-list-item>
        ))}
      </s-unordered-list>
      <Milestones list={def.milestones} value={done} ctx={ctx} />
    </s-stack>
  );
}

/** The top of a leaderboard with the customer's own row marked, and their rank below the top when outside it. */
function BoardItem({ board, standings, ctx }: { board: Board; standings: Standings; ctx: Ctx }) {
  const rows = rankRows(standings, ctx.t.you);
  return (
    <s-stack gap="small-200" data-board={board.id}>
      <s-heading>{boardTitle(board)}</s-heading>
      {board.eudDescription && <s-paragraph color="subdued">{board.eudDescription}</s-paragraph>}
      {rows.length ? (
        <s-unordered-list>
          {rows.map((r, at) =>
            r ? (
              <s-list-item key={at} data-me={r.isCaller}>
                {ctx.n.format(r.rank)}. {r.displayName} · {boardValue(board, r.value, ctx.t, ctx.lang)}
                {r.badge && <s-badge>{ctx.t.you}</s-badge>}
              </s-list-item>
            ) : (
              <s-list-item key={at}>⋯</s-list-item>
            ),
          )}
        </s-unordered-list>
      ) : (
        <s-paragraph color="subdued">{ctx.t.empty}</s-paragraph>
      )}
      <s-text color="subdued">{standings.caller ? fill(ctx.t.ranked, { n: ctx.n.format(standings.rankedCount) }) : ctx.t.notRanked}</s-text>
    </s-stack>
  );
}

/**
 * A reward: its code with a copy button (Shopify's clipboard item does the copying; a toast says so) and, where the
 * storefront is known, a button that opens it with the code applied to the customer's cart (Shopify's own
 * `/discount/<code>` link); its expiry and how to redeem it; or when a held one comes, or that it was taken back.
 */
function RewardItem({ log, ctx }: { log: RewardLog; ctx: Ctx }) {
  const clip = `code-${log.id}`;
  const view = rewardView(log, ctx.t, ctx.lang);
  return (
    <s-stack gap="small-200" data-reward={log.id}>
      <s-heading>{log.eudRewardTitle}</s-heading>
      {view.kind === 'code' ? (
        <s-stack direction="inline" gap="small-200" alignItems="center">
          <s-text type="strong">{view.code}</s-text>
          <s-clipboard-item id={clip} text={view.code} onCopy={() => ctx.toast(ctx.w.codeCopied)} />
          <s-button commandFor={clip} variant="secondary">
            {ctx.t.copy}
          </s-button>
          {ctx.storefrontUrl && (
            <s-button href={applyCodeLink(view.code, { origin: ctx.storefrontUrl })} target="_blank" variant="secondary" data-apply>
              {ctx.t.applyCode}
            </s-button>
          )}
        </s-stack>
      ) : view.kind === 'credit' ? (
        <s-text type="strong">{view.amount}</s-text>
      ) : (
        <s-paragraph color="subdued">{view.text}</s-paragraph>
      )}
      {view.kind !== 'note' && log.rewardExpiryAt && (
        <s-text color="subdued">
          {fill(ctx.w.validUntil, { date: dateFormat(ctx.lang, { dateStyle: 'long' }).format(new Date(log.rewardExpiryAt)) })}
        </s-text>
      )}
      {view.kind !== 'note' && log.eudRedeemInstructionMessage && <s-paragraph>{log.eudRedeemInstructionMessage}</s-paragraph>}
    </s-stack>
  );
}

/**
 * The member's points (CONTRACT §19): balance, tier and the progress to the next one, rewards to
 * redeem with a Redeem button, the ways to earn (a social profile with a Follow button), their
 * referral link to the shop's storefront, and the history of their entries (read again after a
 * redemption, which adds one).
 */
function PointsSection({
  points,
  defs,
  logs: loadedLogs,
  api,
  storefrontUrl,
  friendGift,
  ctx,
}: {
  points: Points;
  defs: Definition[];
  logs: RewardLog[];
  api: PageData['api'];
  storefrontUrl: string | undefined;
  friendGift: string | undefined;
  ctx: Ctx;
}) {
  const { t, lang, currency } = ctx;
  const [member, setMember] = useState<Member | null>(points.member);
  // A member the shop has paused redeems, follows and gives a birthday for nothing: the core refuses them.
  const partaker = participant(member);
  const [history, setHistory] = useState(points.history ?? []);
  // A redemption's reward log names the entry that bought it.
  const [logs, setLogs] = useState(loadedLogs);
  const [busy, setBusy] = useState<string>();
  const [outcome, setOutcome] = useState<RedeemOutcome>();
  // The network whose follow is being credited, and one whose credit failed.
  const [following, setFollowing] = useState<SocialNetwork | null>(null);
  const [followFailed, setFollowFailed] = useState<SocialNetwork | null>(null);
  const name = pointsName(points.setting, t);
  const amount = (n: number) => pointsText(n, name, lang);
  const tier = member && tierView(points.tiers, member);
  const expiry = member && pointsExpiry(points.setting, member, t, name, lang);
  // A member reads what they earn: every earned entry times their tier's multiplier (CONTRACT §19).
  const boost = tierBoost(tier?.current, lang, t);
  const earn = waysToEarn(points.setting, defs, t, lang, currency, tier?.current?.earnMultiplier, member?.socialFollows ?? []);
  const onBirthday = birthdayPoints(points.setting, tier?.current?.earnMultiplier);
  const offer = referralOffer(points.setting, t, name, lang, tier?.current?.earnMultiplier, friendGift);
  // A bonus points event running now, beside the ways to earn it multiplies.
  const bonus = bonusText(points.setting, t, lang);

  const redeem = (reward: Reward) => void redeemInto(api, reward.id, t, name, { setBusy, setOutcome, setMember, setLogs, setHistory });
  const follow = (network: SocialNetwork) =>
    void followInto(api, points.setting.id, network, { setBusy: setFollowing, setFailed: setFollowFailed, setMember, setHistory });

  return (
    <s-section heading={name.other} data-points>
      <s-stack gap="base">
        {member && (
          <s-stack gap="small-200" data-balance>
            <s-text type="strong">{amount(member.pointsBalance)}</s-text>
            {!partaker && (
              <s-paragraph color="subdued" data-paused>
                {t.paused}
              </s-paragraph>
            )}
            {tier?.current && <s-badge data-tier>{tierTitle(tier.current, t)}</s-badge>}
            {tier?.current?.eudDescription && <s-paragraph color="subdued">{tier.current.eudDescription}</s-paragraph>}
            {tier?.next && <Bar value={tier.earned} max={tier.next.pointsThreshold} label={toNextTier(tier, name, t, lang)} ctx={ctx} />}
            {expiry && (
              <s-paragraph color="subdued" data-expiry>
                {expiry}
              </s-paragraph>
            )}
            {member.birthday && (
              <s-paragraph color="subdued" data-birthday>
                {fill(t.birthdayOn, { date: birthdayText(member.birthday, lang) })}
              </s-paragraph>
            )}
          </s-stack>
        )}
        {points.rewards.length > 0 && (
          <s-stack gap="small-200" data-redeem>
            <s-heading>{t.toRedeem}</s-heading>
            {points.rewards.map((reward) => {
              const short = member ? reward.pointsCost - member.pointsBalance : 0;
              const shown = outcome?.id === reward.id ? outcome : undefined;
              return (
                <s-stack key={reward.id} gap="small-200" data-cost={reward.id}>
                  <s-stack direction="inline" gap="small-200" alignItems="center">
                    <s-text type="strong">{rewardTitle(reward, t, lang, { points: name, currency })}</s-text>
                    <s-text>{amount(reward.pointsCost)}</s-text>
                    <s-button disabled={busy !== undefined || short > 0 || (!!member && !partaker)} onClick={() => redeem(reward)}>
                      {t.redeem}
                    </s-button>
                    {short > 0 && <s-text color="subdued">{fill(t.toGo, { n: amount(short) })}</s-text>}
                  </s-stack>
                  {shown && 'error' in shown && <s-banner tone="critical" heading={shown.error} />}
                  {shown && 'log' in shown && (
                    <s-banner tone="success" heading={t.redeemed}>
                      <RewardItem log={shown.log} ctx={ctx} />
                    </s-banner>
                  )}
                </s-stack>
              );
            })}
          </s-stack>
        )}
        {earn.length > 0 && (
          <s-stack gap="small-200" data-earn>
            <s-heading>{boost ? `${t.waysToEarn} · ${boost}` : t.waysToEarn}</s-heading>
            {bonus && <s-badge data-bonus>{bonus}</s-badge>}
            <s-unordered-list>
              {earn.map((row) => (
                <s-list-item key={row.key} data-follow={row.follow?.network}>
                  {row.label} · {row.earns}
                  {partaker && row.follow && (
                    <FollowAction
                      offer={row.follow}
                      label={row.label}
                      following={following}
                      failed={followFailed === row.follow.network}
                      onFollow={follow}
                      t={t}
                    />
                  )}
                </s-list-item>
              ))}
            </s-unordered-list>
          </s-stack>
        )}
        {partaker && !partaker.birthday && onBirthday > 0 && (
          <BirthdayForm api={api} ctx={ctx} gets={amount(onBirthday)} setMember={setMember} />
        )}
        {partaker && offer && storefrontUrl && (
          <ReferralCard offer={offer} link={referralLink(storefrontUrl, partaker.referralCode)} ctx={ctx} />
        )}
        {history.length > 0 && (
          <s-stack gap="small-200" data-history>
            <s-heading>{t.history}</s-heading>
            <s-unordered-list>
              {pointHistory(history, logs, t, name, lang).map((row) => (
                <s-list-item key={row.key}>
                  {row.date} · {row.what} · {row.points}
                </s-list-item>
              ))}
            </s-unordered-list>
          </s-stack>
        )}
      </s-stack>
    </s-section>
  );
}

/**
 * A social profile's Follow button, which opens the profile in a new tab (its click handler runs
 * first) and credits the follow, taken on trust as no network tells a shop who follows it; once
 * followed, says so.
 */
function FollowAction({
  offer: { network, url, followed },
  label,
  following,
  failed,
  onFollow,
  t,
}: {
  offer: FollowOffer;
  label: string;
  following: SocialNetwork | null;
  failed: boolean;
  onFollow(network: SocialNetwork): void;
  t: Strings;
}) {
  if (followed) return <s-text color="subdued">{t.followed}</s-text>;
  return (
    <>
      <s-button
        href={url}
        target="_blank"
        accessibilityLabel={label}
        variant="secondary"
        disabled={following !== null}
        loading={following === network}
        onClick={() => onFollow(network)}
      >
        {t.follow}
      </s-button>
      {failed && <s-banner tone="critical" heading={t.followFailed} />}
    </>
  );
}

/**
 * Asks a member without a birthday for it (month and day, no year), once: the core takes a
 * member's own birthday once, and the shop changes it after (`saveBirthdayInto`).
 */
function BirthdayForm({
  api,
  ctx: { t, lang },
  gets,
  setMember,
}: {
  api: PageData['api'];
  ctx: Ctx;
  gets: string;
  setMember(member: Member): void;
}) {
  const [month, setMonth] = useState(0);
  const [day, setDay] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const picked = (e: Event) => Number((e.currentTarget as HTMLElement & { value?: string }).value) || 0;
  // A day the new month lacks (the 31st, for April) becomes its last.
  const chooseMonth = (e: Event) => {
    const m = picked(e);
    setMonth(m);
    setDay((d) => Math.min(d, daysIn(m)));
  };
  const save = () => {
    if (!busy && month && day) void saveBirthdayInto(api, birthdayOf(month, day), { setBusy, setFailed, setMember });
  };
  return (
    <s-stack gap="small-200" data-birthday-form>
      <s-heading>{t.onBirthday}</s-heading>
      <s-paragraph>{fill(t.birthdayAsk, { points: gets })}</s-paragraph>
      <s-stack direction="inline" gap="small-200" alignItems="end">
        <s-select label={t.month} value={month ? String(month) : ''} onChange={chooseMonth} data-month>
          {monthNames(lang).map((name, i) => (
            <s-option key={name} value={String(i + 1)}>
              {name}
            </s-option>
          ))}
        </s-select>
        <s-select label={t.day} value={day ? String(day) : ''} onChange={(e: Event) => setDay(picked(e))} data-day>
          {Array.from({ length: daysIn(month) }, (_, i) => (
            <s-option key={i} value={String(i + 1)}>
              {String(i + 1)}
            </s-option>
          ))}
        </s-select>
        <s-button disabled={busy || !month || !day} onClick={save}>
          {t.save}
        </s-button>
      </s-stack>
      <s-paragraph color="subdued">{t.birthdayNotice}</s-paragraph>
      {failed && <s-banner tone="critical" heading={t.birthdayFailed} />}
    </s-stack>
  );
}

/** What a referral earns, and the member's link to share, read-only with a button that copies it (Shopify's clipboard item) and says so. */
function ReferralCard({ offer, link, ctx: { t, w, toast } }: { offer: string; link: string; ctx: Ctx }) {
  return (
    <s-stack gap="small-200" data-referral>
      <s-heading>{t.referFriend}</s-heading>
      <s-paragraph>{offer}</s-paragraph>
      <s-text-field label={t.yourLink} value={link} readOnly />
      <s-clipboard-item id="referral-link" text={link} onCopy={() => toast(w.linkCopied)} />
      <s-button commandFor="referral-link" variant="secondary">
        {t.copyLink}
      </s-button>
    </s-stack>
  );
}
