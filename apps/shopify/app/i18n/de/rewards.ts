import type { Messages } from '../messages';

export const rewards: Messages['rewards'] = {
  coupons: {
    title: 'Gutscheincode-Vorrat',
    available: 'Verfügbar:',
    issued: 'Ausgegeben:',
    dropLabel: 'Codes aus einer CSV-Datei importieren (ein Code pro Zeile, ohne Kopfzeile)',
    choose: 'CSV auswählen',
    dropHint: 'oder hier ablegen',
    imported: '{imported} Codes importiert; {duplicates} Duplikate übersprungen.',
    uploadFailed: 'Der Upload ist fehlgeschlagen ({status}).',
    notSent: 'Der Upload konnte nicht gesendet werden.',
  },
  discount: {
    title: 'Shopify-Rabatt',
    toggle: 'Als Shopify-Rabatt ausgeben',
    help: 'Jedes Prämienprotokoll erhält einen eigenen Rabattcode in Shopify: Art und Wert dieser Prämie, nur für diesen Kunden, einmal einlösbar, gültig bis zum Ablauf der Prämie. Der Loyalty-Dienst vergibt dann keinen eigenen Code.',
    failures: 'Rabatte, die nicht ausgegeben werden konnten',
    columns: { rewardLog: 'Prämienprotokoll', customer: 'Kunde', reason: 'Grund' },
    retry: 'Erneut versuchen',
    enabled: 'Prämien werden als Shopify-Rabatte ausgegeben.',
    disabled: 'Prämien werden nicht mehr als Shopify-Rabatte ausgegeben.',
    retrying: 'Der Rabatt wird erneut versucht.',
    notFailed: 'Dieser Rabatt ist nicht mehr fehlgeschlagen.',
  },
};
