/** The widget page: its records and the live preview. */
export const widget = {
  title: 'Widget',
  new: 'New',
  preview: 'Live preview',
  previewHelp:
    'The storefront shows the oldest live floating widget, theme and template (marked “On your store”): the app hands them to the “Loyalty widget” app embed by itself. Preview any of them here.',
  onStore: 'On your store',
  show: 'Show preview',
  incomplete: 'Create a floating widget, a theme and a template to preview the widget.',
  frameTitle: 'Widget preview',
  frameNote: 'Storefront preview (guest view)',
  page: 'A loyalty page',
  pageHelp:
    'Show your whole program on a page of your store, such as a “Rewards” page: the ways to earn, the rewards to redeem and the tiers, and for a signed-in customer their points and a Redeem button. It needs the “Loyalty widget” app embed on.',
  addPage: 'Add to a page in the theme editor',
  product: 'Points on product and cart pages',
  productHelp:
    'Under a product’s price, what buying it earns (“Earn 39 points with this purchase”), for the variant and quantity the shopper picks; on the cart page, what the order earns, its discounts and points per order included. Both count a signed-in customer’s tier multiplier and a bonus points event while it runs, show while points are on and orders earn them, need no app embed, and promise nothing to customers you leave out by tag.',
  addProduct: 'Add to product pages in the theme editor',
  addCart: 'Add to the cart page in the theme editor',
  reminder: 'A reminder beside the launcher',
  reminderHelp:
    'Once a visit, a few seconds into a page, the widget reminds a guest what creating an account earns, and a member which reward their points already cover or how many more the nearest one takes; pressed, it opens their points. It is on unless you untick “Remind shoppers of their points” in the “Loyalty widget” app embed.',
  reminderSettings: 'Open the app embed in the theme editor',
};
