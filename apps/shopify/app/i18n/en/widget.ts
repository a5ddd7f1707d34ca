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
};
