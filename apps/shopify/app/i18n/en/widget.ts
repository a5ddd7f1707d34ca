/** The widget page: its records and the live preview. */
export const widget = {
  title: 'Widget',
  new: 'New',
  preview: 'Live preview',
  previewHelp: 'The storefront shows only live records. Use these ids in the theme editor’s "Loyalty widget" app embed.',
  show: 'Show preview',
  incomplete: 'Create a floating widget, a theme and a template to preview the widget.',
  frameTitle: 'Widget preview',
  frameNote: 'Storefront preview (guest view)',
};
