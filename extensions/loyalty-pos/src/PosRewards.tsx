import { pageLanguage } from '@loyalty/view-model';
import { render } from 'preact';
import { APP_URL } from './app-url.js';
import { CustomerBlock, RedeemModal } from './block.js';
import { loadCustomer, Redeemer } from './load.js';

// Shopify runs the module's default export with the target's API as the global `shopify`: the
// block's (with the action that presents the modal) or the modal's; both have the customer POS shows
// and the cart.
export default async () => {
  const lang = pageLanguage(shopify.locale.current.value);
  const customerId = shopify.customer.id;
  const load = () => loadCustomer(APP_URL, () => shopify.session.getSessionToken(), customerId, lang);
  if (shopify.extensionPoint === 'pos.customer-details.block.render') {
    const { action } = shopify;
    render(<CustomerBlock load={load} lang={lang} open={() => action.presentModal()} />, document.body);
    return;
  }
  const { session, storage, cart } = shopify;
  render(
    <RedeemModal
      load={load}
      lang={lang}
      redeemer={(data) => new Redeemer(data.core, storage, session.currentSession, customerId)}
      apply={(code) => cart.addCartCodeDiscount(code)}
    />,
    document.body,
  );
};
