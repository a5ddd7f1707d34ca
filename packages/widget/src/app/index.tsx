import { Component, type ComponentChildren, render } from 'preact';
import { Api, en, loadNudge, nudgeText, type Strings } from '@loyalty/view-model';
import type { Mounting, NudgeMounting, PageMounting, PanelControl, WidgetConfig } from '../config.js';
import { type Display, edges, launcherLabel } from '../display.js';
import { type Gift, loadGift } from './gift.js';
import { Panel, type PanelProps } from './panel.js';
import nudgeCss from './nudge.css?inline';
import css from './styles.css?inline';
import { addStyles } from '../styles.js';

/** Marks each opening on the page's performance timeline, once the panel is in the DOM (bench:widget reads it). */
const MARK_PANEL = 'loyalty-widget:panel';

/** One reader per `init`: the reminder's reads and the panel's renew an expired token once between them. */
const apis = new WeakMap<WidgetConfig, Api>();
const apiFor = (config: WidgetConfig): Api => {
  let api = apis.get(config);
  if (!api) apis.set(config, (api = new Api(config)));
  return api;
};

/** A rendering error removes the panel, never the host page. */
class Boundary extends Component<{ children: ComponentChildren }, { failed: boolean }> {
  override state = { failed: false };
  override componentDidCatch(err: unknown): void {
    console.warn('[LoyaltyWidget]', err);
    this.setState({ failed: true });
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** The panel for the display records `d`: beside the launcher (with `onClose`), or in a page. */
const panelOf = (
  api: Api,
  config: WidgetConfig,
  t: Strings,
  d: Display,
  rest: Pick<PanelProps, 'launcherHeight' | 'gift' | 'onClose' | 'onRetry' | 'onPoints'>,
) => (
  <Boundary>
    <Panel
      api={api}
      config={config}
      launcher={d.launcher}
      template={d.failed ? undefined : d.template}
      label={launcherLabel(d, t.rewards)}
      t={t}
      {...rest}
    />
  </Boundary>
);

/**
 * Called by the loader on the first click of the launcher it drew (or at once in the benchmark's
 * eager build): adds the panel's styles beside the launcher's, and opens and closes the panel.
 */
export function mount({ config, shadow, root, launcher, display: first, reload, words, referral, followed }: Mounting): PanelControl {
  const removeStyles = addStyles(shadow, css);
  const slot = document.createElement('div');
  root.append(slot);
  const api = apiFor(config);
  const t = words ?? en;
  let display = first;
  let open = false;
  let onPoints = false;
  let gift: Gift | null = null;

  const draw = () => {
    launcher.setAttribute('aria-expanded', String(open));
    if (open) launcher.setAttribute('aria-controls', 'lw-panel');
    else launcher.removeAttribute('aria-controls');
    render(
      open
        ? panelOf(api, config, t, display, {
            launcherHeight: launcher.offsetHeight,
            gift,
            onClose: close,
            onRetry: () => void reload().then((d) => ((display = d), draw())),
            onPoints,
          })
        : null,
      slot,
    );
  };
  const close = () => {
    open = false;
    draw();
    launcher.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (open && e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  };
  root.addEventListener('keydown', onKeyDown);
  // A press outside the widget closes the modal panel, as Escape does: the page behind it is not for
  // use while it is open. Focus goes back to the launcher only once the press has left it nowhere
  // (the default action that focuses what was pressed runs after this), never away from the page.
  const onPointerDown = (e: PointerEvent) => {
    if (!open || e.composedPath().includes(shadow.host)) return;
    open = false;
    draw();
    setTimeout(() => {
      if (!document.activeElement || document.activeElement === document.body) launcher.focus();
    });
  };
  // Captured: a page that stops the event's propagation does not keep the panel open.
  document.addEventListener('pointerdown', onPointerDown, true);

  const control: PanelControl = {
    toggle() {
      if (open) return close();
      open = true;
      onPoints = nudgeOpening;
      nudgeOpening = false;
      draw();
      performance.mark(MARK_PANEL);
    },
    unmount() {
      root.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown, true);
      render(null, slot);
      slot.remove();
      removeStyles();
    },
  };
  // A guest's gift from the friend whose referral link they followed (nothing is asked without one kept).
  if (!api.member && config.referralUrl && referral)
    void loadGift(config.referralUrl, referral).then((found) => {
      gift = found;
      // The friend's first visit from the link: the panel opens by itself to show the gift, unless it holds only an error.
      if (found && followed && !found.code && !open && !display.failed) control.toggle();
      else if (open) draw();
    });
  return control;
}

/** The session's reminder was given, or tried: once a session, whatever came of it. */
const NUDGED = 'loyalty-nudged';
/**
 * How long into a page the reminder waits: the shopper first sees the page itself, and its work
 * (the reads, Intl's first number format) stays out of the page's load.
 */
const NUDGE_DELAY_MS = 5000;
/** The reminder is opening the panel: on the points it spoke of. */
let nudgeOpening = false;

/**
 * Called by the loader once the page is idle (unless the panel is already open or on its way): a
 * reminder beside the launcher, in the launcher's corner above it, of what the shopper can have
 * (`nudgeText`: the reward a member's balance covers, the points a guest gets for an account, a
 * bonus points event), unless the page passed `nudges: false`. It comes NUDGE_DELAY_MS later, once a
 * browser session, on a page without a loyalty page (which shows all of it) and whose launcher has
 * not been pressed. Pressed, it opens the panel on the points; it goes with its × or once the
 * launcher is pressed. Nothing is read for it on the session's later pages.
 */
export function nudge(mounting: NudgeMounting): void {
  if (mounting.config.nudges === false || mounting.display.failed) return;
  let pressed = false;
  mounting.launcher.addEventListener('click', () => (pressed = true), { once: true });
  setTimeout(() => {
    if (!pressed && mounting.launcher.isConnected && !document.querySelector('loyalty-page')) remind(mounting);
  }, NUDGE_DELAY_MS);
}

function remind({ config, root, launcher, display, words }: NudgeMounting): void {
  try {
    if (sessionStorage.getItem(NUDGED)) return;
    sessionStorage.setItem(NUDGED, '1');
  } catch {
    // Storage refused: it could not be said only once.
    return;
  }
  const t = words ?? en;
  void loadNudge(apiFor(config)).then(
    (found) => {
      const text = found && nudgeText(found, t, config.languageCode, config.currency);
      // The panel opened meanwhile says more than the reminder would.
      if (!text || !launcher.isConnected || launcher.getAttribute('aria-expanded') === 'true') return;
      const removeStyles = addStyles(root.getRootNode() as ShadowRoot, nudgeCss);
      const slot = document.createElement('div');
      root.append(slot);
      const remove = () => {
        launcher.removeEventListener('click', remove);
        render(null, slot);
        slot.remove();
        removeStyles();
      };
      launcher.addEventListener('click', remove);
      const [vertical, horizontal] = edges(display.launcher);
      const { alignmentPositionX: x, alignmentPositionY: y } = display.launcher;
      const style = { [vertical]: `${y + launcher.offsetHeight + 12}px`, [horizontal]: `${x}px`, '--lw-x': `${x}px` };
      const open = () => {
        nudgeOpening = true;
        launcher.click();
      };
      const dismiss = () => {
        remove();
        launcher.focus();
      };
      render(
        <div class="lw-nudge" role="status" style={style}>
          <button type="button" class="lw-nudge-text" onClick={open}>
            {text}
          </button>
          <button type="button" class="lw-nudge-close" aria-label={t.close} onClick={dismiss}>
            ×
          </button>
        </div>,
        slot,
      );
    },
    () => undefined,
  );
}

/**
 * Called by the loader for each `<loyalty-page>` (the theme's loyalty page block): the panel laid
 * out in the page, always open, with no launcher, taking no focus, in the element's own shadow root.
 */
export function mountPage({ config, element, display, read, styles, paint, words }: PageMounting): Pick<PanelControl, 'unmount'> {
  const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  const removeStyles = [addStyles(shadow, styles), addStyles(shadow, css)];
  const root = document.createElement('div');
  root.className = 'lw-root';
  root.lang = config.languageCode || 'en';
  root.dir = 'ltr';
  shadow.append(root);
  const api = apiFor(config);
  const t = words ?? en;
  const draw = (d: Display) => {
    paint(root, d);
    render(panelOf(api, config, t, d, { launcherHeight: 0, gift: null, onRetry: () => void read().then(draw) }), root);
  };
  draw(display);
  return {
    unmount() {
      render(null, root);
      root.remove();
      removeStyles.forEach((remove) => remove());
    },
  };
}
