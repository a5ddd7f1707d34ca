import '@shopify/ui-extensions/preact';
import { pageLanguage } from '@loyalty/view-model';
import { render } from 'preact';
import { APP_URL } from './app-url.js';
import { loadPage } from './load.js';
import { RewardsPage } from './page.js';

/** The shop's storefront, where a referral link leads: this target's API does not say it, the Storefront API does. */
const storefrontUrl = async (): Promise<string | undefined> =>
  (await shopify.query<{ shop: { primaryDomain: { url: string } } }>('{ shop { primaryDomain { url } } }')).data?.shop.primaryDomain.url;

// Shopify runs the module's default export with the target's API as the global `shopify`.
export default async () => {
  const lang = pageLanguage(shopify.localization.language.value.isoCode);
  render(
    <RewardsPage
      load={() => loadPage(APP_URL, () => shopify.sessionToken.get(), lang, storefrontUrl)}
      lang={lang}
      toast={(message) => void shopify.toast.show(message)}
    />,
    document.body,
  );
};
