/**
 * Outside the Shopify admin there is no App Bridge: this stands in for its save bar (`ui-save-bar`,
 * shown and hidden as App Bridge does, its buttons shown in the page) and records its toasts.
 */
export const APP_BRIDGE_UI = `(() => {
  window.__toasts = [];
  let shopify;
  Object.defineProperty(window, 'shopify', {
    configurable: true,
    get: () => shopify,
    set: (value) => {
      value.toast = { show: (message) => window.__toasts.push(message) };
      shopify = value;
    },
  });
  customElements.define('ui-save-bar', class extends HTMLElement {
    connectedCallback() { if (!this.showing) this.style.display = 'none'; }
    async show() { this.showing = true; this.style.display = 'block'; this.setAttribute('data-showing', ''); }
    async hide() { this.showing = false; this.style.display = 'none'; this.removeAttribute('data-showing'); }
  });
})();`;
