import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { WidgetConfig } from '../config.js';
import { Api, type Board, type FloatingWidget, loadBoards, type Strings, stringsFor, type Template, type Theme } from '@loyalty/view-model';
import { TrophyIcon } from './leaderboard.js';
import { AuthButtons, ErrorState, type Tab, TabContent, tabsFor } from './views.js';

/** The spec's floating widget defaults: the launcher still shows when its record cannot be read. */
const DEFAULT_LAUNCHER: FloatingWidget = {
  eudTitle: null,
  eudIcon: null,
  alignment: 'bottom_right',
  alignmentPositionX: 20,
  alignmentPositionY: 20,
  backgroundColor: 'rgba(255, 255, 255, 1)',
  borderColor: 'rgba(226, 232, 240, 1)',
  textColor: 'rgba(26, 28, 30, 1)',
  borderWidth: 1,
  borderRadius: 8,
  boxShadow: '0 1px 2px rgba(16, 24, 40, 0.06), 0 4px 8px rgba(16, 24, 40, 0.08), 0 12px 24px rgba(16, 24, 40, 0.12)',
  fontSize: 18,
};

interface Display {
  launcher: FloatingWidget;
  theme: Theme | undefined;
  template: Template | undefined;
  /** Some record could not be read: the panel shows its error state. */
  failed: boolean;
}

/** The three display records, read on every page load so that a PATCH shows on the next one. */
async function loadDisplay(api: Api, config: WidgetConfig): Promise<Display> {
  const [launcher, theme, template] = await Promise.allSettled([
    api.get<FloatingWidget>('floating_widget', config.floatingWidgetId),
    api.get<Theme>('theme', config.themeId),
    api.get<Template>('template', config.templateId),
  ]);
  const value = <T,>(r: PromiseSettledResult<T>) => (r.status === 'fulfilled' ? r.value : undefined);
  return {
    launcher: value(launcher) ?? DEFAULT_LAUNCHER,
    theme: value(theme),
    template: value(template),
    failed: [launcher, theme, template].some((r) => r.status === 'rejected'),
  };
}

/** The theme's colours, font and radius as custom properties: everything in the panel uses them. */
function themeProperties(theme: Theme | undefined): Record<string, string> {
  if (!theme) return {};
  return {
    '--lw-primary': theme.primaryColor,
    '--lw-on-primary': theme.primaryContrastTextColor,
    '--lw-secondary': theme.secondaryColor,
    '--lw-text': theme.primaryTextColor,
    '--lw-muted': theme.secondaryTextColor,
    '--lw-bg': theme.backgroundColor,
    '--lw-font': theme.fontFamily,
    '--lw-radius': `${theme.borderRadius}px`,
  };
}

const edges = (launcher: FloatingWidget) => launcher.alignment.split('_') as ['top' | 'bottom', 'left' | 'right'];

function GiftIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      <path d="M20 12v9H4v-9M2 7h20v5H2zM12 21V7M12 7H7.5a2.5 2.5 0 1 1 0-5C11 2 12 7 12 7zM12 7h4.5a2.5 2.5 0 1 0 0-5C13 2 12 7 12 7z" />
    </svg>
  );
}

export function Widget({ config }: { config: WidgetConfig }) {
  const api = useMemo(() => new Api(config), [config]);
  const t = stringsFor(config.languageCode);
  const [display, setDisplay] = useState<Display>();
  const [attempt, setAttempt] = useState(0);
  const [open, setOpen] = useState(false);
  const launcherRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void loadDisplay(api, config).then(setDisplay);
  }, [api, attempt]);

  if (!display) return null;
  const { launcher, theme, template } = display;
  const [vertical, horizontal] = edges(launcher);
  const label = launcher.eudTitle || template?.rewardsTabTitle || 'Rewards';
  const close = () => {
    setOpen(false);
    launcherRef.current?.focus();
  };
  const launcherStyle = {
    [vertical]: `${launcher.alignmentPositionY}px`,
    [horizontal]: `${launcher.alignmentPositionX}px`,
    background: launcher.backgroundColor,
    color: launcher.textColor,
    border: `${launcher.borderWidth}px solid ${launcher.borderColor}`,
    borderRadius: `${launcher.borderRadius}px`,
    boxShadow: launcher.boxShadow,
    fontSize: `${launcher.fontSize}px`,
  };

  return (
    <div
      class="lw-root"
      style={themeProperties(theme)}
      lang={config.languageCode}
      onKeyDown={(e) => {
        if (open && e.key === 'Escape') {
          e.stopPropagation();
          close();
        }
      }}
    >
      <button
        ref={launcherRef}
        type="button"
        class="lw-launcher"
        style={launcherStyle}
        aria-label={launcher.eudTitle ? undefined : label}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? 'lw-panel' : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {launcher.eudIcon ? <img src={launcher.eudIcon} alt="" /> : <GiftIcon />}
        {launcher.eudTitle && <span>{launcher.eudTitle}</span>}
      </button>
      {open && (
        <Panel
          api={api}
          config={config}
          launcher={launcher}
          launcherHeight={launcherRef.current?.offsetHeight ?? 48}
          template={display.failed ? undefined : template}
          label={label}
          t={t}
          onClose={close}
          onRetry={() => setAttempt((a) => a + 1)}
        />
      )}
    </div>
  );
}

const FOCUSABLE = 'a[href],button:not([disabled]),[tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab wrap inside the open panel. */
function trapFocus(e: KeyboardEvent, panel: HTMLElement): void {
  const items = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const active = (panel.getRootNode() as ShadowRoot).activeElement;
  if (e.shiftKey && active === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}

interface PanelProps {
  api: Api;
  config: WidgetConfig;
  launcher: FloatingWidget;
  launcherHeight: number;
  /** Undefined when a display record could not be read: the panel shows its error state. */
  template: Template | undefined;
  label: string;
  t: Strings;
  onClose: () => void;
  onRetry: () => void;
}

function Panel({ api, config, launcher, launcherHeight, template, label, t, onClose, onRetry }: PanelProps) {
  const [tab, setTab] = useState<Tab>('streaks');
  const [boards, setBoards] = useState<Board[]>([]);
  const panelRef = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});

  useEffect(() => {
    const first = tabRefs.current[tab] ?? panelRef.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    // Leaderboards are extra: when they cannot be read, the panel simply has no leaderboard tab.
    if (template) loadBoards(api).then(setBoards, () => undefined);
  }, []);
  const tabs = tabsFor(boards);

  const [vertical, horizontal] = edges(launcher);
  const offset = launcher.alignmentPositionY + launcherHeight + 12;
  const position = {
    [vertical]: `${offset}px`,
    [horizontal]: `${launcher.alignmentPositionX}px`,
    width: `min(380px, calc(100vw - ${2 * launcher.alignmentPositionX}px))`,
    maxHeight: `calc(100vh - ${offset + 16}px)`,
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
    const next = tabs[to]!;
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div
      id="lw-panel"
      ref={panelRef}
      class="lw-panel"
      role="dialog"
      aria-modal="true"
      aria-labelledby="lw-title"
      style={position}
      onKeyDown={(e) => e.key === 'Tab' && panelRef.current && trapFocus(e, panelRef.current)}
    >
      <div class="lw-head">
        <div>
          <h2 id="lw-title">{title}</h2>
          {subtitle && <p>{subtitle}</p>}
        </div>
        <button type="button" class="lw-close" aria-label={t.close} onClick={onClose}>
          ×
        </button>
      </div>
      {!template ? (
        <div class="lw-body">
          <ErrorState t={t} onRetry={onRetry} />
        </div>
      ) : (
        <>
          {!api.member && <AuthButtons template={template} />}
          <div class="lw-tabs" role="tablist" aria-label={title}>
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
                class={id === 'leaderboard' ? 'lw-tab-icon' : undefined}
                tabIndex={id === tab ? 0 : -1}
                onClick={() => setTab(id)}
                onKeyDown={onTabKey}
                // A fifth text label does not fit the panel's width: the leaderboard tab is a trophy, named for screen readers.
                aria-label={id === 'leaderboard' ? t.leaderboard : undefined}
                title={id === 'leaderboard' ? t.leaderboard : undefined}
              >
                {id === 'leaderboard' ? <TrophyIcon /> : template[`${id}TabTitle`] || id}
              </button>
            ))}
          </div>
          <div class="lw-body" id="lw-tabpanel" role="tabpanel" aria-labelledby={`lw-tab-${tab}`} tabIndex={0}>
            <TabContent tab={tab} boards={boards} api={api} t={t} template={template} lang={config.languageCode} />
          </div>
        </>
      )}
    </div>
  );
}
