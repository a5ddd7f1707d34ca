import type { Messages } from '../messages';

export const widget: Messages['widget'] = {
  title: 'Widget',
  new: 'Neu',
  preview: 'Live-Vorschau',
  previewHelp: 'Der Shop zeigt nur Einträge, die live sind. Verwenden Sie diese IDs im App-Embed „Loyalty widget“ des Theme-Editors.',
  show: 'Vorschau anzeigen',
  incomplete: 'Legen Sie ein schwebendes Widget, ein Design und eine Textvorlage an, um das Widget als Vorschau zu sehen.',
  frameTitle: 'Widget-Vorschau',
  frameNote: 'Shop-Vorschau (Gastansicht)',
};
