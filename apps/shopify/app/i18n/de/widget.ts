import type { Messages } from '../messages';

export const widget: Messages['widget'] = {
  title: 'Widget',
  new: 'Neu',
  preview: 'Live-Vorschau',
  previewHelp:
    'Der Shop zeigt das älteste schwebende Widget, Design und die älteste Textvorlage, die live sind (markiert mit „Im Shop“): Die App gibt sie selbst an das App-Embed „Loyalty widget“ weiter. Hier kannst du jede Kombination als Vorschau sehen.',
  onStore: 'Im Shop',
  show: 'Vorschau anzeigen',
  incomplete: 'Lege ein schwebendes Widget, ein Design und eine Textvorlage an, um das Widget als Vorschau zu sehen.',
  frameTitle: 'Widget-Vorschau',
  frameNote: 'Shop-Vorschau (Gastansicht)',
  page: 'Eine Treueprogramm-Seite',
  pageHelp:
    'Zeige dein ganzes Programm auf einer Seite deines Shops, etwa einer Seite „Prämien“: die Wege, Punkte zu sammeln, die einlösbaren Prämien und die Stufen, und angemeldeten Kunden ihre Punkte mit einem Einlösen-Button. Dafür muss das App-Embed „Loyalty widget“ aktiv sein.',
  addPage: 'Im Theme-Editor einer Seite hinzufügen',
  product: 'Punkte auf Produkt- und Warenkorbseiten',
  productHelp:
    'Unter dem Preis eines Produkts, was sein Kauf einbringt („Sammle 39 Punkte mit diesem Kauf“), für die gewählte Variante und Menge; auf der Warenkorbseite, was die Bestellung einbringt, samt Rabatten und Punkten pro Bestellung. Beide zählen den Stufen-Multiplikator angemeldeter Kunden und eine laufende Bonuspunkte-Aktion mit, erscheinen, solange Punkte aktiv sind und Bestellungen Punkte einbringen, brauchen kein App-Embed und versprechen per Tag ausgeschlossenen Kunden nichts.',
  addProduct: 'Im Theme-Editor Produktseiten hinzufügen',
  addCart: 'Im Theme-Editor der Warenkorbseite hinzufügen',
  reminder: 'Eine Erinnerung neben dem Launcher',
  reminderHelp:
    'Einmal pro Besuch, ein paar Sekunden nach dem Laden einer Seite, erinnert das Widget Gäste daran, was ein Kundenkonto an Punkten bringt, und Mitglieder daran, welche Prämie ihre Punkte schon abdecken oder wie viele Punkte zur nächsten noch fehlen; ein Klick darauf öffnet ihre Punkte. Sie ist aktiv, solange „Kunden an ihre Punkte erinnern“ im App-Embed „Loyalty widget“ angehakt ist.',
  reminderSettings: 'App-Embed im Theme-Editor öffnen',
};
