import { Component, type ComponentChildren, render } from 'preact';
import type { WidgetConfig } from '../config.js';
import css from './styles.css?inline';
import { Widget } from './Widget.js';

/** A rendering error removes the widget, never the host page. */
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

let mounted: { host: HTMLElement; root: HTMLElement } | undefined;

function start(config: WidgetConfig): void {
  try {
    if (mounted) {
      render(null, mounted.root);
      mounted.host.remove();
    }
    // A custom element name: store rules aimed at div or span do not reach the host.
    const host = document.createElement('loyalty-widget');
    const shadow = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = css;
    const root = document.createElement('div');
    shadow.append(style, root);
    document.body.append(host);
    mounted = { host, root };
    render(
      <Boundary>
        <Widget config={config} />
      </Boundary>,
      root,
    );
  } catch (err) {
    console.warn('[LoyaltyWidget] could not mount:', err);
  }
}

/** Called by the loader for every `init`: a later call replaces the widget. */
export function mount(config: WidgetConfig): void {
  if (document.body) start(config);
  else document.addEventListener('DOMContentLoaded', () => start(config), { once: true });
}
