import type { Messages } from '../messages';

export const help: Messages['help'] = {
  title: 'Hilfe',
  footer: 'Mehr erfahren über {topic}',
  footerGeneral: 'Mehr erfahren in der Hilfe',
  topics: {
    setup: {
      title: 'Erste Schritte',
      body: 'Die Einrichtungsanleitung auf der Übersicht führt dich durch dein erstes Programm, das Aktivieren des Loyalty-Widgets in deinem Theme und die Prüfung, ob Kunden es sehen.',
    },
    programs: {
      title: 'Serien, Challenges und Missionen',
      body: 'Eine Serie belohnt Mitglieder, die Zeitraum für Zeitraum wiederkommen, eine Challenge das Erreichen eines Ziels in einem Zeitraum, eine Mission das Erledigen einer Liste von Aufgaben. Jedes Programm kann Meilensteine haben, die unterwegs Prämien geben.',
    },
    points: {
      title: 'Punkte und VIP-Stufen',
      body: 'Mitglieder sammeln Punkte mit Bestellungen, bei der Anmeldung, mit der Newsletter-Anmeldung, zum Geburtstag, fürs Folgen deines Shops in sozialen Netzwerken, mit Empfehlungen an Freunde und an Meilensteinen und lösen sie für die Prämien ein, denen du einen Punktepreis gibst. VIP-Stufen richten sich nach den Punkten, die ein Mitglied im Zeitraum der Stufen gesammelt hat: Jede Stufe kann das Gesammelte vervielfachen und beim Erreichen eine Prämie geben. Kommst du von einer anderen Treue-App, übernimmst du die Punktestände deiner Kunden mit einer CSV-Datei auf der Seite Punkte.',
    },
    rewards: {
      title: 'Prämien',
      body: 'Eine Prämie bekommt ein Mitglied für einen Meilenstein oder den Abschluss eines Programms: einen Shopify-Rabatt, einen Code aus hochgeladenen oder von der App erzeugten Codes oder Guthaben.',
    },
    earnings: {
      title: 'Was dein Programm einbringt',
      body: 'Die Übersicht vergleicht die Umsätze von Mitgliedern in deinem Programm mit denen von zurückgehaltenen Mitgliedern. So siehst du den Umsatz, den dein Programm bringt, statt Käufen, die ohnehin passiert wären.',
    },
    leaderboards: {
      title: 'Bestenlisten',
      body: 'Eine Bestenliste reiht die Mitglieder eines Programms nach ihrer aktuellen oder besten Serie, ihrem Fortschritt in einem Challenge-Zeitraum oder danach, wie oft sie eine Mission abgeschlossen haben. Kunden sehen sie als Tab im Widget, mit Namen so, wie du es wählst.',
    },
    members: {
      title: 'Mitglieder',
      body: 'Alle Kunden, die mitmachen, sind Mitglieder. Die Seite eines Mitglieds zeigt seinen Fortschritt, seine Prämien und Codes und verlinkt auf den Kunden in Shopify.',
    },
    notifications: {
      title: 'Benachrichtigungen',
      body: 'Eine Benachrichtigungsregel sendet eine Nachricht, wenn in deinem Programm etwas passiert, zum Beispiel ein erreichter Meilenstein. Wähle die Momente, den Versandweg und die Nachricht; die Vorschau zeigt sie mit Beispieldaten.',
    },
    emails: {
      title: 'E-Mail-Vorlagen',
      body: 'Eine E-Mail-Vorlage enthält Betreff und Nachricht. Füge Angaben wie den Vornamen des Mitglieds aus der Liste neben der Nachricht ein; sie werden beim Versand für jedes Mitglied ausgefüllt.',
    },
    widget: {
      title: 'Widget und Branding',
      body: 'Das Widget ist das Treue-Fenster, das Kunden über eine Schaltfläche in deinem Shop öffnen. Im Branding legst du Farben, die Position der Schaltfläche und die Texte fest; die Vorschau zeigt das echte Widget, während du bearbeitest.',
    },
    webhooks: {
      title: 'Webhooks',
      body: 'Webhooks senden die Ereignisse deines Programms an ein anderes System, das du betreibst, zum Beispiel ein CRM.',
    },
    dataRequests: {
      title: 'Datenanfragen',
      body: 'Wenn Kunden ihre Daten anfordern oder gelöscht werden möchten, meldet Shopify das der App. Diese Seite listet diese Anfragen und was die App getan hat.',
    },
    advanced: {
      title: 'Alle Felder',
      body: 'Das Menü „Erweitert“ jedes Editors öffnet alle Felder, die der Loyalty-Dienst für einen Eintrag speichert. Du brauchst es selten; die Editoren decken ab, was Kunden sehen.',
    },
  },
};
