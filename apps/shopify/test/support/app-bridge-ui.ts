import type { Page } from 'playwright-core';

/**
 * Outside the Shopify admin there is no App Bridge: this stands in for its save bar (`ui-save-bar`,
 * shown and hidden as App Bridge does, its buttons shown in the page), records its toasts, and
 * answers its resource picker with what the test put in `window.__pick` (as the merchant would
 * select it; nothing: they closed the picker), recording the options in `window.__pickerCalls`.
 * Added to a page with `addInitScript`.
 */
export const APP_BRIDGE_UI = `(() => {
  window.__toasts = [];
  window.__pickerCalls = [];
  let shopify;
  Object.defineProperty(window, 'shopify', {
    configurable: true,
    get: () => shopify,
    set: (value) => {
      value.toast = { show: (message) => window.__toasts.push(message) };
      value.resourcePicker = async (options) => {
        window.__pickerCalls.push(options);
        return window.__pick;
      };
      shopify = value;
    },
  });
  customElements.define('ui-save-bar', class extends HTMLElement {
    connectedCallback() { if (!this.showing) this.style.display = 'none'; }
    async show() { this.showing = true; this.style.display = 'block'; this.setAttribute('data-showing', ''); }
    async hide() { this.showing = false; this.style.display = 'none'; this.removeAttribute('data-showing'); }
  });
})();`;

/** What the editor tests read of a page with APP_BRIDGE_UI: its save bar and toasts, and Polaris' field errors. */
export function editorUi(page: () => Page) {
  return {
    saveBar: () => page().locator('ui-save-bar'),
    /** App Bridge hides the bar on the render after the save's answer, a frame after its toast. */
    saveBarHidden: () => page().locator('ui-save-bar:not([data-showing])').waitFor({ state: 'attached' }),
    toasts: () => page().evaluate(() => (window as unknown as { __toasts: string[] }).__toasts),
    /** Clicks the page's own Save button, in either admin language. */
    save: () =>
      page()
        .getByRole('button', { name: /^(Save|Speichern)$/ })
        .first()
        .click(),
    /** The error Polaris shows under a field, found by the field's label. */
    async fieldError(label: string) {
      const input = page().getByLabel(label, { exact: true });
      const described = await input.getAttribute('aria-describedby');
      const ids = (described ?? '').split(' ').filter((id) => id.endsWith('Error'));
      return ids.length ? page().locator(`[id="${ids[0]}"]`).innerText() : '';
    },
  };
}
