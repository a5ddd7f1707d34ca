import type { HTMLAttributes } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetConfig } from '../config.js';
import {
  type Api,
  type Board,
  earnMultiplier,
  type FloatingWidget,
  loadBoards,
  type PointsSetting,
  pointsName,
  type Strings,
  type Template,
} from '@loyalty/view-model';
import { edges } from '../display.js';
import { type Gift, GiftCard } from './gift.js';
import { AuthButtons, ErrorState, type Tab, TabContent, tabsFor } from './views.js';

const FOCUSABLE = 'a[href],button:not([disabled]),[tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab wrap inside the open panel. */
function trapFocus(e: KeyboardEvent, panel: HTMLElement): void {
  const items = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const active = (panel.getRootNode() as ShadowRoot).activeElement;
  // The dialog itself holds focus until its tabs are drawn.
  if (e.shiftKey && (active === first || active === panel)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}

export interface PanelProps {
  api: Api;
  config: WidgetConfig;
  launcher: FloatingWidget;
  launcherHeight: number;
  /** Undefined when a display record could not be read: the panel shows its error state. */
  template: Template | undefined;
  label: string;
  t: Strings;
  /** A guest's gift from the friend who referred them, shown above every tab. */
  gift: Gift | null;
  /** Closes the dialog beside the launcher; absent: the panel is laid out in the page (a loyalty page), always open. */
  onClose?: () => void;
  onRetry: () => void;
  /** Opens on the points once they are live, as a loyalty page does: the reminder beside the launcher, which spoke of them, opened it. */
  onPoints?: boolean;
}

export function Panel({ api, config, launcher, launcherHeight, template, label, t, gift, onClose, onRetry, onPoints }: PanelProps) {
  const [tab, setTab] = useState<Tab>('streaks');
  // Whether the shopper has picked a tab: a loyalty page opens on the points once they are live, unless so.
  const picked = useRef(false);
  const pick = (next: Tab) => {
    picked.current = true;
    setTab(next);
  };
  const [boards, setBoards] = useState<Board[]>([]);
  const [points, setPoints] = useState<PointsSetting>();
  const [multiplier, setMultiplier] = useState(1);
  // The tabs are drawn once the extra tabs' first reads have answered, all at once: not one by one,
  // moving the others, nor on the streaks a moment before the points they open on.
  const [ready, setReady] = useState(false);
  const panelRef = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});

  // On open, and again once a retry has read the display records: focus in the dialog (a page's panel
  // takes none: it shows as the page loads), and its extra tabs.
  useEffect(() => {
    const panel = panelRef.current!;
    if (onClose) (template ? panel : panel.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    if (!template) return;
    let open = true;
    // Leaderboards and points are extra tabs: absent while there are none (points off read as no
    // setting), and read again while they cannot be read (every 20 s after the first tries), so an
    // outage, however long, does not take them away for as long as the panel is open.
    const persist = <T,>(read: () => Promise<T>, use: (value: T) => unknown, waits = [2_000, 5_000, 10_000]): Promise<unknown> =>
      read().then(
        (value) => open && use(value),
        () => {
          const [wait = 20_000, ...rest] = waits;
          if (open) setTimeout(() => open && persist(read, use, rest), wait);
        },
      );
    Promise.all([
      persist(() => loadBoards(api), setBoards),
      // With points live, a member's milestones say what they earn with their tier's multiplier.
      persist(
        () => api.list('points_setting'),
        ([live]) => {
          setPoints(live);
          if (live && (!onClose || onPoints) && !picked.current) setTab('points');
          if (live) return persist(() => earnMultiplier(api), setMultiplier);
        },
      ),
    ]).then(() => open && setReady(true));
    return () => {
      open = false;
    };
  }, [Boolean(template)]);
  // In the dialog, focus goes to the selected tab once drawn, and with it when points arriving late
  // select theirs, unless the shopper has left the tabs meanwhile.
  useEffect(() => {
    const at = (panelRef.current?.getRootNode() as ShadowRoot | undefined)?.activeElement;
    if (ready && onClose && (at === panelRef.current || at?.getAttribute('role') === 'tab')) tabRefs.current[tab]?.focus();
  }, [ready, tab]);
  const tabs = tabsFor(boards, Boolean(points));
  const name = pointsName(points, t);

  const [vertical, horizontal] = edges(launcher);
  // Beside the launcher (styles.css sizes the panel from these, and on a short screen moves it over the launcher).
  const position = {
    [vertical]: 'var(--lw-at)',
    [horizontal]: `${launcher.alignmentPositionX}px`,
    '--lw-off': `${launcher.alignmentPositionY + launcherHeight + 12}px`,
    '--lw-x': `${launcher.alignmentPositionX}px`,
  };
  const title = (api.member ? template?.loggedInTitle : template?.loggedOutTitle) || label;
  const subtitle = api.member ? template?.loggedInSubTitle : template?.loggedOutSubTitle;

  const onTabKey = (e: KeyboardEvent) => {
    const at = tabs.indexOf(tab);
    const keys: Record<string, number> = {
      ArrowRight: (at + 1) % tabs.length,
      ArrowLeft: (at + tabs.length - 1) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const to = keys[e.key];
    if (to === undefined) return;
    e.preventDefault();
    pick(tabs[to]!);
  };

  const dialog: HTMLAttributes<HTMLDivElement> = onClose
    ? {
        role: 'dialog',
        'aria-modal': true,
        tabIndex: -1,
        style: position,
        onKeyDown: (e) => {
          if (e.key === 'Tab' && panelRef.current) trapFocus(e, panelRef.current);
        },
      }
    : { role: 'region' };
  return (
    <div id="lw-panel" ref={panelRef} class={onClose ? 'lw-panel' : 'lw-panel lw-page'} aria-labelledby="lw-title" {...dialog}>
      <div class="lw-head">
        <div>
          <h2 id="lw-title">{title}</h2>
          {subtitle && <p>{subtitle}</p>}
        </div>
        {onClose && (
          <button type="button" class="lw-close" aria-label={t.close} onClick={onClose}>
            ×
          </button>
        )}
      </div>
      {!template ? (
        <div class="lw-body">
          <ErrorState t={t} onRetry={onRetry} />
        </div>
      ) : (
        <>
          {!api.member && <AuthButtons template={template} />}
          {!ready ? (
            <div class="lw-body">
              <p class="lw-muted" role="status">
                {t.loading}
              </p>
            </div>
          ) : (
            <>
              <div class={tabs.length > 5 ? 'lw-tabs lw-six' : 'lw-tabs'} role="tablist" aria-label={title}>
                {tabs.map((id) => (
                  <button
                    key={id}
                    ref={(el) => {
                      tabRefs.current[id] = el;
                    }}
                    type="button"
                    role="tab"
                    id={`lw-tab-${id}`}
                    aria-selected={id === tab}
                    aria-controls="lw-tabpanel"
                    tabIndex={id === tab ? 0 : -1}
                    onClick={() => pick(id)}
                    onKeyDown={onTabKey}
                  >
                    {id === 'leaderboard' ? t.leaderboard : id === 'points' ? name.other : template[`${id}TabTitle`] || t[id]}
                  </button>
                ))}
              </div>
              <div class="lw-body" id="lw-tabpanel" role="tabpanel" aria-labelledby={`lw-tab-${tab}`} tabIndex={0}>
                {gift && <GiftCard gift={gift} t={t} template={template} />}
                <TabContent
                  tab={tab}
                  boards={boards}
                  api={api}
                  t={t}
                  template={template}
                  lang={config.languageCode}
                  currency={config.currency}
                  referralUrl={config.referralUrl}
                  pointsName={name}
                  earnMultiplier={multiplier}
                />
              </div>
            </>
          )}
        </>
      )}
    </div>
  );
}
