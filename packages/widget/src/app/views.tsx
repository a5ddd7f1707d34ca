import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import {
  type Api,
  applyCodeLink,
  type Board,
  type ChallengeProgress,
  currentChallenge,
  currentMission,
  dateFormat,
  type Definition,
  type Faces,
  fill,
  keyStart,
  LIVE_MISSION_PROGRESS,
  LIVE_STREAK_PROGRESS,
  loadPoints,
  type Milestone,
  milestoneEarns,
  milestoneRows,
  type MissionProgress,
  missionTasks,
  NEWEST_FIRST,
  numberFormat,
  OLDEST_FIRST,
  type Period,
  type Points,
  type PointsName,
  type RewardLog,
  rewardView,
  type Standings,
  type StreakProgress,
  streakStrip,
  streakView,
  type Strings,
  type Template,
} from '@loyalty/view-model';
import { BoardPicker, StandingsCard } from './leaderboard.js';
import { PointsTab } from './points.js';

export type Tab = 'streaks' | 'challenges' | 'missions' | 'leaderboard' | 'points' | 'rewards';

/** The leaderboard tab shows only when a live leaderboard of a shown definition exists, the points tab while points are live. */
export const tabsFor = (boards: Board[], points: boolean): Tab[] => [
  'streaks',
  'challenges',
  'missions',
  ...(boards.length ? (['leaderboard'] as const) : []),
  ...(points ? (['points'] as const) : []),
  'rewards',
];

type TabData =
  | { tab: 'streaks'; defs: Definition[]; progress: StreakProgress[] }
  | { tab: 'challenges'; defs: Definition[]; progress: ChallengeProgress[] }
  | { tab: 'missions'; defs: Definition[]; progress: MissionProgress[] }
  | { tab: 'leaderboard'; board: Board; standings: Standings }
  /** points: null once the merchant turned points off since the panel opened. */
  | { tab: 'points'; points: Points | null; defs: Definition[]; logs: RewardLog[] }
  | { tab: 'rewards'; logs: RewardLog[] };

/** Definitions for everyone; the member's own progress and reward logs in member mode; the picked leaderboard's standings. */
async function loadTab(api: Api, tab: Tab, board: Board | undefined): Promise<TabData> {
  // The leaderboard tab exists only when there is a board to show.
  if (tab === 'leaderboard') return { tab, board: board!, standings: await api.standings(board!.id) };
  const own = <S extends keyof Faces>(slug: S, query: Record<string, unknown>) =>
    api.member ? api.list(slug, query) : Promise.resolve<Faces[S][]>([]);
  if (tab === 'streaks') {
    const [defs, progress] = await Promise.all([api.list('streak', OLDEST_FIRST), own('streak_progress', LIVE_STREAK_PROGRESS)]);
    return { tab, defs, progress };
  }
  if (tab === 'challenges') {
    const [defs, progress] = await Promise.all([api.list('challenge', OLDEST_FIRST), own('challenge_progress', NEWEST_FIRST)]);
    return { tab, defs, progress };
  }
  if (tab === 'missions') {
    const [defs, progress] = await Promise.all([api.list('mission', OLDEST_FIRST), own('mission_progress', LIVE_MISSION_PROGRESS)]);
    return { tab, defs, progress };
  }
  if (tab === 'points') {
    // Definitions too: their milestones that give points are ways to earn. A member's history, with the reward logs that name its entries.
    const [points, logs, ...defs] = await Promise.all([
      loadPoints(api, { history: true }),
      own('reward_log', { ...NEWEST_FIRST, limit: 50 }),
      api.list('streak', OLDEST_FIRST),
      api.list('challenge', OLDEST_FIRST),
      api.list('mission', OLDEST_FIRST),
    ]);
    return { tab, points, defs: defs.flat(), logs };
  }
  return { tab, logs: await own('reward_log', { ...NEWEST_FIRST, limit: 50 }) };
}

export interface ViewProps {
  api: Api;
  t: Strings;
  template: Template;
  lang: string | undefined;
  /** The shop's currency (ISO 4217), when the page says it: what points are earned per and fixed amounts are in. */
  currency: string | undefined;
  /** The shop's endpoint for a referred friend's gift (`WidgetConfig.referralUrl`): the member's referral card says what their friends get. */
  referralUrl: string | undefined;
  /** What points are called (the merchant's names, else the interface's words). */
  pointsName: PointsName;
  /** What the member's earned points are multiplied by (their tier's `earnMultiplier`); 1 for a guest. */
  earnMultiplier: number;
}

export function ErrorState({ t, onRetry }: { t: Strings; onRetry: () => void }) {
  // The button goes with the error: focus stays in the panel (its selected tab, else the panel), where Escape and Tab still work.
  const retry = (e: Event) => {
    const panel = (e.currentTarget as HTMLElement).closest<HTMLElement>('[role="dialog"]');
    (panel?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ?? panel)?.focus();
    onRetry();
  };
  return (
    <div class="lw-error" role="status">
      <p>{t.error}</p>
      <button type="button" class="lw-button lw-ghost" onClick={retry}>
        {t.retry}
      </button>
    </div>
  );
}

export function AuthButtons({ template }: { template: Template }) {
  return (
    <div class="lw-auth">
      {template.signUpUrl && template.signUpButtonText && (
        <a class="lw-button" href={template.signUpUrl}>
          {template.signUpButtonText}
        </a>
      )}
      {template.logInUrl && template.logInButtonText && (
        <a class="lw-button lw-ghost" href={template.logInUrl}>
          {template.logInButtonText}
        </a>
      )}
    </div>
  );
}

/** One tab's content, fetched when the tab is shown (on the leaderboard tab, when a leaderboard is picked). */
export function TabContent({ tab, boards, ...props }: ViewProps & { tab: Tab; boards: Board[] }) {
  const [state, setState] = useState<{ data?: TabData; failed?: boolean }>({});
  const [attempt, setAttempt] = useState(0);
  const [picked, setPicked] = useState(0);
  // Only the leaderboard tab depends on the pick: the boards arriving must not reload another tab.
  const board = tab === 'leaderboard' ? boards[picked] : undefined;
  useEffect(() => {
    let current = true;
    setState({});
    loadTab(props.api, tab, board).then(
      (data) => current && setState({ data }),
      () => current && setState({ failed: true }),
    );
    return () => {
      current = false;
    };
  }, [tab, attempt, board]);
  return (
    <>
      {tab === 'leaderboard' && boards.length > 1 && <BoardPicker boards={boards} picked={picked} onPick={setPicked} t={props.t} />}
      {state.failed ? <ErrorState t={props.t} onRetry={() => setAttempt((a) => a + 1)} /> : <Content data={state.data} {...props} />}
    </>
  );
}

function Content({ data, ...props }: ViewProps & { data: TabData | undefined }) {
  if (!data)
    return (
      <p class="lw-muted" role="status">
        {props.t.loading}
      </p>
    );
  if (data.tab === 'leaderboard')
    return <StandingsCard board={data.board} standings={data.standings} t={props.t} lang={props.lang} member={props.api.member} />;
  if (data.tab === 'rewards') return <Rewards logs={data.logs} {...props} />;
  if (data.tab === 'points')
    return data.points ? (
      <PointsTab points={data.points} defs={data.defs} logs={data.logs} {...props} />
    ) : (
      <p class="lw-muted">{props.t.empty}</p>
    );
  if (!data.defs.length) return <p class="lw-muted">{props.t.empty}</p>;
  const now = Date.now();
  return (
    <ul class="lw-cards">
      {data.tab === 'streaks' &&
        data.defs.map((d) => (
          <StreakCard key={d.id} def={d} progress={data.progress.find((p) => p.streakId === d.id)} now={now} {...props} />
        ))}
      {data.tab === 'challenges' &&
        data.defs.map((d) => <ChallengeCard key={d.id} def={d} progress={currentChallenge(d, data.progress, now)} {...props} />)}
      {data.tab === 'missions' &&
        data.defs.map((d) => <MissionCard key={d.id} def={d} progress={currentMission(d, data.progress, now)} {...props} />)}
    </ul>
  );
}

function Card({ def, children }: { def: Definition; children?: ComponentChildren }) {
  return (
    <li class="lw-card">
      <div class="lw-card-head">
        {def.eudIcon && <img class="lw-icon" src={def.eudIcon} alt="" />}
        <div>
          <h3>{def.eudTitle}</h3>
          {def.eudDescription && <p class="lw-muted">{def.eudDescription}</p>}
        </div>
      </div>
      {children}
    </li>
  );
}

export function Bar({ value, max, label, lang }: { value: number; max: number; label: string; lang: string | undefined }) {
  const n = numberFormat(lang);
  const percent = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  return (
    <div>
      <div class="lw-row">
        <span>{label}</span>
        <span class="lw-pair">
          {n.format(value)} / {n.format(max)}
        </span>
      </div>
      <div class="lw-bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={Math.min(value, max)}>
        <div style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** Milestones with their targets and what each earns; for a member, the reached ones and the next marked. */
function Milestones({ list, value, ctx }: { list: Milestone[]; value: number; ctx: ViewProps }) {
  const { t, lang, api, pointsName, currency, earnMultiplier } = ctx;
  if (!list.length) return null;
  const n = numberFormat(lang);
  return (
    <ul class="lw-list" data-milestones>
      {milestoneRows(list, value, api.member).map((m) => {
        const earns = milestoneEarns(m, t, lang, { points: pointsName, currency, multiplier: earnMultiplier });
        return (
          <li key={m.id} class={m.reached ? 'lw-done' : undefined}>
            <span class="lw-num">{n.format(m.milestoneTargetValue)}</span>
            <span>
              {m.eudTitle}
              {earns && <b class="lw-earns">{earns}</b>}
            </span>
            {m.reached && <span class="lw-badge">{t.reached}</span>}
            {m.next && <span class="lw-badge">{t.next}</span>}
          </li>
        );
      })}
    </ul>
  );
}

function SnowIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true">
      <path d="M12 2v20M3.3 7l17.4 10M3.3 17 20.7 7M9 3.5l3 2.5 3-2.5M9 20.5l3-2.5 3 2.5" />
    </svg>
  );
}

const SLOT_LABEL: Record<Period, Intl.DateTimeFormatOptions> = {
  daily: { weekday: 'short' },
  weekly: { day: 'numeric', month: 'short' },
  monthly: { month: 'short' },
};

/** The run's latest periods: completed ones ticked, frozen ones with a snowflake, the next one open. */
function Strip({ progress, period, t, lang }: { progress: StreakProgress; period: Period; t: Strings; lang: string | undefined }) {
  const format = dateFormat(lang, { ...SLOT_LABEL[period], timeZone: 'UTC' });
  const words = { done: t.completed, frozen: t.frozen, next: t.next };
  return (
    <ol class="lw-strip" data-strip>
      {streakStrip(progress, period).map((slot) => (
        <li key={slot.key} class={`lw-${slot.state}`} data-key={slot.key}>
          <span aria-hidden="true">{slot.state === 'frozen' ? <SnowIcon /> : slot.state === 'done' ? '✓' : ''}</span>
          {format.format(keyStart(slot.key, period))}
          <span class="lw-sr">{words[slot.state]}</span>
        </li>
      ))}
    </ol>
  );
}

function StreakCard(props: ViewProps & { def: Definition; progress: StreakProgress | undefined; now: number }) {
  const { def, progress, now, t, lang, api } = props;
  const view = streakView(def, progress, now);
  const live = progress && !view.completed && view.length > 0;
  return (
    <Card def={def}>
      {api.member && (
        <>
          <div class="lw-row">
            <p class="lw-big">
              {view.completed ? def.eudCompletedMessage || t.completed : fill(t.inARow, { n: numberFormat(lang).format(view.length) })}
            </p>
            {live && (def.maxFreezes ?? 0) > 0 && (
              <span class="lw-freezes" data-freezes>
                <SnowIcon />
                {fill(t.freezes, { n: numberFormat(lang).format(progress.freezesAvailable) })}
              </span>
            )}
          </div>
          {live && <Strip progress={progress} period={def.aggregationPeriod} t={t} lang={lang} />}
          {!view.completed && <Bar value={view.value} max={view.target} label={t[def.aggregationPeriod]} lang={lang} />}
        </>
      )}
      <Milestones list={def.milestones} value={view.length} ctx={props} />
    </Card>
  );
}

function ChallengeCard(props: ViewProps & { def: Definition; progress: ChallengeProgress | undefined }) {
  const { def, progress, t, lang, api } = props;
  const value = progress?.currentProgressValue ?? 0;
  const target = def.completionTargetValue ?? 0;
  return (
    <Card def={def}>
      {api.member && progress?.challengeProgressStatus === 'completed' && <p class="lw-big">{def.eudCompletedMessage || t.completed}</p>}
      {api.member && <Bar value={value} max={target} label={t[def.aggregationPeriod]} lang={lang} />}
      <Milestones list={def.milestones} value={value} ctx={props} />
    </Card>
  );
}

function MissionCard(props: ViewProps & { def: Definition; progress: MissionProgress | undefined }) {
  const { def, progress, t, lang, api } = props;
  const { done, rows } = missionTasks(def, progress);
  const n = numberFormat(lang);
  return (
    <Card def={def}>
      {api.member &&
        (progress?.missionProgressStatus === 'completed' ? (
          <p class="lw-big">{def.eudCompletedMessage || t.completed}</p>
        ) : (
          <p class="lw-row">{fill(t.tasks, { d: n.format(done), n: n.format(rows.length) })}</p>
        ))}
      <ul class="lw-list" data-tasks>
        {rows.map((task) => (
          <li key={task.id} class={task.complete ? 'lw-done' : undefined}>
            <span class="lw-num">{api.member ? `${n.format(task.value)}/${n.format(task.targetValue)}` : n.format(task.targetValue)}</span>
            <span>{task.eudTitle}</span>
            {task.complete && <span class="lw-badge">✓</span>}
          </li>
        ))}
      </ul>
      <Milestones list={def.milestones} value={done} ctx={props} />
    </Card>
  );
}

/** The Clipboard API, or where a page refuses it, the older copy command. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.cssText = 'position:fixed;opacity:0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/** A button that copies `text`, then says so with the template's "copied" message for a moment, to screen readers too. */
export function CopyButton({ text, label, template }: { text: string; label: string; template: Template }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 3000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copiedMessage = template.copiedMessage ?? '✓';
  return (
    <>
      <button
        type="button"
        class="lw-button"
        data-copy
        onClick={(e) => {
          // Refused (no clipboard on a plain-http page, a permission denied): the code or link shown
          // beside the button is selected instead, for the shopper to copy.
          const shown = (e.currentTarget as HTMLElement).previousElementSibling!;
          void copyText(text).then((ok) => {
            setCopied(ok);
            if (ok) return;
            if (shown instanceof HTMLInputElement) shown.select();
            else getSelection()?.selectAllChildren(shown);
          });
        }}
      >
        {copied ? copiedMessage : label}
      </button>
      <span class="lw-sr" role="status">
        {copied ? copiedMessage : ''}
      </span>
    </>
  );
}

/**
 * A Shopify storefront's root for the shopper's language (`/`, `/fr/`), which its theme names in
 * `window.Shopify`; none on other pages, which have no cart to apply a code to.
 */
function storefrontRoot(): string | undefined {
  const shopify = (window as { Shopify?: { routes?: { root?: unknown } } }).Shopify;
  if (!shopify) return undefined;
  const root = shopify.routes?.root;
  return typeof root === 'string' && root.startsWith('/') ? root : '/';
}

export function Reward({ log, t, template, lang }: { log: RewardLog; t: Strings; template: Template; lang: string | undefined }) {
  const view = rewardView(log, t, lang);
  const root = view.kind === 'code' ? storefrontRoot() : undefined;
  return (
    <li class={view.kind === 'note' && view.gone ? 'lw-card lw-revoked' : 'lw-card'}>
      <h3>{log.eudRewardTitle}</h3>
      {view.kind === 'code' ? (
        <>
          <div class="lw-code">
            <code>{view.code}</code>
            <CopyButton text={view.code} label={t.copy} template={template} />
          </div>
          {root && (
            <a class="lw-button" href={applyCodeLink(view.code, { then: `${root}cart` })} data-apply>
              {t.applyCode}
            </a>
          )}
        </>
      ) : view.kind === 'credit' ? (
        <p class="lw-big">{view.amount}</p>
      ) : (
        <p class="lw-muted">{view.text}</p>
      )}
      {view.kind !== 'note' && log.eudRedeemInstructionMessage && <p class="lw-muted">{log.eudRedeemInstructionMessage}</p>}
    </li>
  );
}

function Rewards({ logs, t, template, api, lang }: ViewProps & { logs: RewardLog[] }) {
  // A guest has no rewards yet; the sign-in buttons are in the header above the tabs.
  if (!api.member) return <p class="lw-muted">{t.signInForRewards}</p>;
  if (!logs.length) return <p class="lw-muted">{t.empty}</p>;
  return (
    <ul class="lw-cards">
      {logs.map((log) => (
        <Reward key={log.id} log={log} t={t} template={template} lang={lang} />
      ))}
    </ul>
  );
}
