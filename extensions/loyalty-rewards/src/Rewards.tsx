import '@shopify/ui-extensions/preact';
import { pageLanguage } from '@loyalty/view-model';
import { render } from 'preact';
import { APP_URL } from './app-url.js';
import { loadPage } from './load.js';
import { RewardsPage } from './page.js';

// Shopify runs the module's default export with the target's API as the global `shopify`.
export default async () => {
  const lang = pageLanguage(shopify.localization.language.value.isoCode);
  render(<RewardsPage load={() => loadPage(APP_URL, () => shopify.sessionToken.get(), lang)} lang={lang} />, document.body);
};
