import { Component, type ComponentChildren, render } from 'preact';
import { Api, en, type Strings } from '@loyalty/view-model';
import type { Mounting, PageMounting, PanelControl, WidgetConfig } from '../config.js';
import { type Display, launcherLabel } from '../display.js';
import { type Gift, loadGift } from './gift.js';
import { Panel, type PanelProps } from './panel.js';
import css from './styles.css?inline';
import { addStyles } from '../styles.js';

/** Marks each opening on the page's performance timeline, once the panel is in the DOM (bench:widget reads it). */
const MARK_PANEL = 'loyalty-widget:panel';

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
  rest: Pick<PanelProps, 'launcherHeight' | 'gift' | 'onClose' | 'onRetry'>,
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
  const api = new Api(config);
  const t = words ?? en;
  let display = first;
  let open = false;
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
  const api = new Api(config);
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
