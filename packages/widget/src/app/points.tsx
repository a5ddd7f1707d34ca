import { useEffect, useId, useRef, useState } from 'preact/hooks';
import {
  type Api,
  birthdayOf,
  bonusText,
  birthdayPoints,
  birthdayText,
  daysIn,
  type Definition,
  fill,
  followInto,
  type FollowOffer,
  type Member,
  monthNames,
  networkName,
  pointHistory,
  pointsExpiry,
  type Points,
  pointsText,
  saveBirthdayInto,
  type Reward as RedeemableReward,
  rewardTitle,
  participant,
  type RedeemOutcome,
  redeemInto,
  referralLink,
  referralOffer,
  type RewardLog,
  type Strings,
  type Template,
  tierBoost,
  tierTitle,
  tierView,
  toNextTier,
  waysToEarn,
} from '@loyalty/view-model';
import { giftTitle } from './gift.js';
import { Bar, CopyButton, Reward, type ViewProps } from './views.js';

/**
 * The points tab (CONTRACT §19): a member's balance, tier and progress to the next one, the rewards
 * to redeem with a Redeem button, the ways to earn, their referral link and their history (read
 * again after a redemption, which adds to it); a guest sees the ways to earn and the costs.
 */
export function PointsTab({
  points,
  defs,
  logs: loadedLogs,
  ...props
}: ViewProps & { points: Points; defs: Definition[]; logs: RewardLog[] }) {
  const { api, t, lang, currency, referralUrl, pointsName: name } = props;
  const [member, setMember] = useState<Member | null>(points.member);
  // A member the shop has paused redeems, follows and gives a birthday for nothing: the core refuses them.
  const partaker = participant(member);
  const [history, setHistory] = useState(points.history ?? []);
  // A redemption's reward log names the entry that bought it.
  const [logs, setLogs] = useState(loadedLogs);
  const [busy, setBusy] = useState<string>();
  const [outcome, setOutcome] = useState<RedeemOutcome>();
  const amount = (n: number) => pointsText(n, name, lang);
  const tier = member && tierView(points.tiers, member);
  const expiry = member && pointsExpiry(points.setting, member, t, name, lang);
  // A member sees what they earn: every earned entry times their tier's multiplier (CONTRACT §19).
  const boost = tierBoost(tier?.current, lang, t);
  const earn = waysToEarn(points.setting, defs, t, lang, currency, tier?.current?.earnMultiplier, member?.socialFollows);
  // A bonus points event running now: said above the ways to earn it multiplies.
  const bonus = bonusText(points.setting, t, lang);
  const onBirthday = birthdayPoints(points.setting, tier?.current?.earnMultiplier);
  // What the shop gives the friends the member refers, when it says: a gift instead of their points.
  const [gift, setGift] = useState<string | null>();
  const code = member?.referralCode;
  useEffect(() => {
    if (referralUrl && code && points.setting.referralRewardId) void giftTitle(referralUrl, code).then(setGift);
  }, [code]);
  const offer = referralOffer(points.setting, t, name, lang, tier?.current?.earnMultiplier, gift);

  // The Redeem button pressed: when it still has focus (or focus was lost), focus goes to what came of it.
  const pressed = useRef<EventTarget | null>(null);
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const active = (said.current?.getRootNode() as Document | ShadowRoot | undefined)?.activeElement;
    if (!active || active === pressed.current || active === document.body) said.current?.focus();
    // The new code below the outcome, which a phone may not show with it: brought into view too.
    said.current?.nextElementSibling?.scrollIntoView({ block: 'nearest' });
  }, [outcome]);
  const redeem = (reward: RedeemableReward, e: Event) => {
    // Busy, the buttons keep focus (aria-disabled rather than disabled) and do nothing.
    if (busy !== undefined) return;
    pressed.current = e.currentTarget;
    void redeemInto(api, reward.id, t, name, { setBusy, setOutcome, setMember, setLogs, setHistory });
  };
  // The network whose follow is being credited (one at a time), and the one whose credit failed.
  const [following, setFollowing] = useState<string | null>(null);
  const [unfollowed, setUnfollowed] = useState<string | null>(null);
  const follow = ({ network, url }: FollowOffer, e: Event) => {
    // Busy, the buttons keep focus (aria-disabled rather than disabled) and do nothing.
    if (following) return;
    const row = (e.currentTarget as HTMLElement).parentElement!;
    // Opened within the click, which popup blockers let through; the click is the follow.
    window.open(url, '_blank', 'noopener,noreferrer');
    void followInto(api, points.setting.id, network, { setBusy: setFollowing, setFailed: setUnfollowed, setMember, setHistory }).then(
      () => {
        // Followed, the pressed button is gone: focus goes to its row rather than out of the panel.
        if (!(row.getRootNode() as ShadowRoot).activeElement) row.focus();
      },
    );
  };

  return (
    <div class="lw-cards">
      {member && (
        <div class="lw-card" data-balance>
          <p class="lw-big">{amount(member.pointsBalance)}</p>
          {!partaker && (
            <p class="lw-muted" data-paused>
              {t.paused}
            </p>
          )}
          {tier?.current && <h3 data-tier>{tierTitle(tier.current, t)}</h3>}
          {tier?.current?.eudDescription && <p class="lw-muted">{tier.current.eudDescription}</p>}
          {tier?.next && <Bar value={tier.earned} max={tier.next.pointsThreshold} label={toNextTier(tier, name, t, lang)} lang={lang} />}
          {expiry && (
            <p class="lw-muted" data-expiry>
              {expiry}
            </p>
          )}
          {member.birthday && (
            <p class="lw-muted" data-birthday>
              {fill(t.birthdayOn, { date: birthdayText(member.birthday, lang) })}
            </p>
          )}
        </div>
      )}
      {points.rewards.length > 0 && (
        <>
          <h3>{t.toRedeem}</h3>
          <ul class="lw-cards" data-redeem>
            {points.rewards.map((reward) => {
              const short = member ? reward.pointsCost - member.pointsBalance : 0;
              // Untitled, a fixed amount says nothing when the page names no currency: no empty heading then.
              const title = rewardTitle(reward, t, lang, { points: name, currency });
              const shown = outcome?.id === reward.id ? outcome : undefined;
              return (
                <li key={reward.id} class="lw-card">
                  <div class="lw-row">
                    {title && <h4 id={`lw-r-${reward.id}`}>{title}</h4>}
                    <b class="lw-earns">{amount(reward.pointsCost)}</b>
                  </div>
                  {member && (
                    <div class="lw-row">
                      <span class="lw-muted">{short > 0 && fill(t.toGo, { n: amount(short) })}</span>
                      <button
                        type="button"
                        class="lw-button lw-redeem"
                        disabled={short > 0 || !partaker}
                        aria-disabled={busy !== undefined}
                        aria-describedby={title ? `lw-r-${reward.id}` : undefined}
                        onClick={(e) => redeem(reward, e)}
                      >
                        {busy === reward.id ? t.loading : t.redeem}
                      </button>
                    </div>
                  )}
                  {shown && 'error' in shown && (
                    <p ref={said} tabIndex={-1} class="lw-alert" role="alert">
                      {shown.error}
                    </p>
                  )}
                  {shown && 'log' in shown && (
                    <>
                      <p ref={said} tabIndex={-1} class="lw-badge" role="status">
                        {t.redeemed}
                      </p>
                      <ul>
                        <Reward log={shown.log} {...props} />
                      </ul>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
          {!member && <p class="lw-muted">{t.signInToRedeem}</p>}
        </>
      )}
      {earn.length > 0 && (
        <>
          <h3>
            {t.waysToEarn}
            {boost && <span class="lw-muted"> · {boost}</span>}
          </h3>
          {bonus && (
            <p class="lw-bonus" data-bonus>
              {bonus}
            </p>
          )}
          <ul class="lw-list" data-earn>
            {earn.map(({ key, label, earns, follow: offer }) => (
              <li key={key} tabIndex={offer && -1}>
                <span>{label}</span>
                <b class="lw-earns">{earns}</b>
                {partaker &&
                  offer &&
                  (offer.followed ? (
                    <span class="lw-muted">✓ {t.followed}</span>
                  ) : (
                    // Named by its network: one "Follow" button a row.
                    <button
                      type="button"
                      class="lw-button lw-redeem"
                      aria-label={`${t.follow} (${networkName(offer.network)})`}
                      aria-disabled={!!following}
                      onClick={(e) => follow(offer, e)}
                    >
                      {t.follow}
                    </button>
                  ))}
              </li>
            ))}
          </ul>
          {unfollowed && (
            <p class="lw-alert" role="alert">
              {t.followFailed}
            </p>
          )}
        </>
      )}
      {partaker && !partaker.birthday && onBirthday > 0 && (
        <BirthdayForm api={api} t={t} lang={lang} gets={amount(onBirthday)} setMember={setMember} />
      )}
      {partaker && offer && (
        // The widget runs on the storefront: its own origin is where the link leads.
        <ReferralCard t={t} template={props.template} offer={offer} link={referralLink(window.location.origin, partaker.referralCode)} />
      )}
      {history.length > 0 && (
        <>
          <h3>{t.history}</h3>
          <ul class="lw-list" data-history>
            {pointHistory(history, logs, t, name, lang).map((row) => (
              <li key={row.key}>
                <span class="lw-muted">{row.date}</span>
                <span>{row.what}</span>
                <b class={row.gained ? 'lw-earns' : undefined}>{row.points}</b>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * Asks a member without a birthday for it (month and day, no year), once: the core takes a
 * member's own birthday once, and the shop changes it after (`saveBirthdayInto`).
 */
function BirthdayForm({
  api,
  t,
  lang,
  gets,
  setMember,
}: {
  api: Api;
  t: Strings;
  lang: string | undefined;
  gets: string;
  setMember(member: Member): void;
}) {
  const [month, setMonth] = useState(0);
  const [day, setDay] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const months = monthNames(lang);
  const save = (e: Event) => {
    e.preventDefault();
    if (!busy && month && day) void saveBirthdayInto(api, birthdayOf(month, day), { setBusy, setFailed, setMember });
  };
  // A day the new month lacks (the 31st, for April) becomes its last.
  const chooseMonth = (m: number) => {
    setMonth(m);
    setDay((d) => Math.min(d, daysIn(m)));
  };
  const pick = (set: (n: number) => void) => (e: Event) => set(Number((e.currentTarget as HTMLSelectElement).value));
  return (
    <form class="lw-card lw-birthday" data-birthday-form onSubmit={save}>
      <h3>{t.onBirthday}</h3>
      <p>{fill(t.birthdayAsk, { points: gets })}</p>
      <div class="lw-row">
        <label>
          <span>{t.month}</span>
          <select value={month} onChange={pick(chooseMonth)}>
            <option value={0} />
            {months.map((name, i) => (
              <option key={name} value={i + 1}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t.day}</span>
          <select value={day} onChange={pick(setDay)}>
            <option value={0} />
            {Array.from({ length: daysIn(month) }, (_, i) => (
              <option key={i} value={i + 1}>
                {i + 1}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="lw-button" disabled={!month || !day} aria-disabled={busy}>
          {t.save}
        </button>
      </div>
      <p class="lw-muted lw-small">{t.birthdayNotice}</p>
      {failed && (
        <p class="lw-alert" role="alert">
          {t.birthdayFailed}
        </p>
      )}
    </form>
  );
}

/** What a referral earns, and the member's link to share, read-only with a Copy button. */
function ReferralCard({ t, template, offer, link }: { t: Strings; template: Template; offer: string; link: string }) {
  const id = useId();
  return (
    <div class="lw-card" data-referral>
      <h3>{t.referFriend}</h3>
      <p>{offer}</p>
      <label class="lw-small" for={id}>
        {t.yourLink}
      </label>
      <div class="lw-code">
        <input id={id} readOnly value={link} />
        <CopyButton text={link} label={t.copyLink} template={template} />
      </div>
    </div>
  );
}
