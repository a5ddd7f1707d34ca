import type { Messages } from '../messages';

export const onboarding: Messages['onboarding'] = {
  title: 'Starte dein Treueprogramm',
  progress: '{done} von {total} Schritten erledigt',
  show: 'Schritt anzeigen',
  hide: 'Checkliste ausblenden',
  reopen: 'Einrichtungs-Checkliste anzeigen',
  folded: 'Einrichtungs-Checkliste: {done} von {total} Schritten erledigt.',
  done: 'Erledigt',
  toDo: 'Offen',
  markDone: 'Als erledigt markieren',
  markUndone: 'Als offen markieren',
  steps: {
    program: {
      title: '1. Programm wählen',
      intro:
        'Wähle ein fertiges Programm: Es wird in einem Schritt mit seinen Meilensteinen und Prämien angelegt. Du kannst später alles ändern.',
      choose: 'Wählen',
      chosen: 'Gewählt',
      status: 'Starten',
      live: 'Sofort live: Kundinnen und Kunden sehen es und sammeln Fortschritt',
      draft: 'Als Entwurf: Im Shop ändert sich nichts, bis du es live schaltest',
      shopifyDiscounts: 'Prämien als Shopify-Rabatte ausgeben',
      shopifyDiscountsHelp:
        'Jede Prämie wird ein einmal nutzbarer Rabattcode in Shopify für diese Person. Sonst erzeugt der Treue-Service eigene Codes.',
      language: 'Texte für Kundinnen und Kunden entstehen in der Hauptsprache deines Shops, wenn das Widget sie kennt, sonst auf Englisch.',
      create: 'Programm anlegen',
      created: '„{name}“ angelegt ({status}).',
      failed: 'Das Programm konnte nicht angelegt werden: {message}',
      nothingKept: 'Es wurde nichts behalten.',
      leftOver: 'Diese Einträge konnten nicht wieder entfernt werden: {names}.',
      busy: 'Dieses Programm wird gerade schon angelegt. Warte einen Moment und sieh dann unten bei deinen Programmen nach.',
      open: 'Öffnen',
      openTiers: 'VIP-Stufen öffnen',
      goLive: 'Live schalten',
      launched: '„{name}“ ist live.',
      yours: 'Deine Programme',
      statuses: { live: 'Live', draft: 'Entwurf', paused: 'Pausiert' },
      kinds: { streak: 'Serie', challenge: 'Challenge', mission: 'Mission', points_setting: 'Punkte' },
      templates: {
        'daily-visit': {
          title: 'Tägliche Besuchsserie',
          summary: 'Eine Woche lang jeden Tag wiederkommen.',
          creates: [
            'Eine tägliche Serie über 7 Tage',
            'Ein Besuch angemeldeter Kundinnen und Kunden zählt von selbst, einmal am Tag',
            'Eine Prämie nach 3 Tagen (10 % Rabatt) und nach 7 Tagen (20 % Rabatt)',
          ],
        },
        'weekly-freezes': {
          title: 'Wöchentliche Serie mit Jokern',
          summary: 'Eine Bestellung pro Woche, so lange sie möchten.',
          creates: [
            'Eine endlose wöchentliche Serie: jede bezahlte Bestellung zählt für ihre Woche',
            'Bis zu 2 Joker, einer alle 4 Wochen, jeder deckt eine verpasste Woche ab',
            'Eine Prämie nach 4 Wochen (10 % Rabatt) und nach 12 Wochen (25 % Rabatt), 14 Tage für Rücksendungen zurückgehalten',
          ],
        },
        'monthly-spend': {
          title: 'Monatliche Einkaufs-Challenge',
          summary: 'Was bezahlte Bestellungen für Produkte ausgeben, zählt je Kalendermonat zusammen.',
          creates: [
            'Eine monatliche Challenge, die die Produktbeträge bezahlter Bestellungen bis {target} addiert; Erstattungen nehmen ihren Teil zurück',
            'Eine Prämie bei {half} ({halfOff} Rabatt) und bei {target} ({fullOff} Rabatt), 14 Tage für Rücksendungen zurückgehalten',
            'Eine Bestenliste der Top-Kunden des Monats',
          ],
        },
        'welcome-mission': {
          title: 'Willkommensmission',
          summary: 'Die ersten zwei Schritte neuer Kundinnen und Kunden.',
          creates: [
            'Aufgaben: Konto anlegen und eine erste Bestellung bezahlen, beide zählen von selbst',
            'Eine Willkommensprämie von 15 %, wenn beide erledigt sind, 14 Tage für Rücksendungen zurückgehalten',
          ],
        },
        'points-tiers': {
          title: 'Punkte und Stufen',
          summary: 'Kundinnen und Kunden sammeln mit jeder Bestellung Punkte und lösen sie gegen Prämien ein.',
          creates: [
            'Punkte an: 1 Punkt je Einheit deiner Währung, die für Produkte ausgegeben wird, 100 Punkte für die Anmeldung und 100 zum Geburtstag',
            'Empfehlungen: 500 Punkte für Kunden, deren Link einen neuen Kunden bringt, und 250 für diesen auf seine erste Bestellung',
            'Prämien zum Einlösen: {pointsOff} Rabatt für 500 Punkte, 10 % Rabatt für 1.000 Punkte',
            'Stufen nach den in 12 Monaten gesammelten Punkten: Silber ab 500 (1,2-fache Punkte), Gold ab 1.500 (1,5-fache Punkte)',
          ],
        },
      },
    },
    embed: {
      title: '2. Im Shop anzeigen',
      intro:
        'Schalte die App-Einbettung „Loyalty widget“ in deinem Live-Theme ein: Der Theme-Editor öffnet sich in einem neuen Tab, mit ihr eingeschaltet.',
      openEditor: 'Widget im Theme-Editor einschalten',
      then: 'Wähle dann im Theme-Editor Speichern. Dieser Schritt hakt sich selbst ab, wenn du zu diesem Tab zurückkehrst.',
      missingRecords: 'Das Widget braucht einen Live-Launcher, ein Theme und Texte.',
      createRecords: 'Anlegen',
      recordsCreated: 'Launcher, Theme und Texte des Widgets sind bereit.',
      ok: 'Das Widget ist in deinem Live-Theme „{theme}“ eingeschaltet.',
      reasons: {
        unreadable: 'Dein Live-Theme konnte nicht gelesen werden: {detail}',
        no_main_theme: 'Dein Shop hat kein veröffentlichtes Theme.',
        not_added: 'Das Widget ist in deinem Live-Theme noch nicht eingeschaltet.',
        disabled: 'Das Widget ist in deinem Live-Theme „{theme}“ ausgeschaltet.',
      },
    },
    automate: {
      title: '3. Automatisieren',
      intro:
        'Bezahlte Bestellungen, Erstattungen, Stornierungen, Anmeldungen und Besuche zählen schon: Die Regeln jedes Programms, in seinem Editor, sagen, was es speist. Shopify Flow ist für alles andere da: Aktionen melden weitere Aktivitäten, Trigger starten Workflows.',
      actions: 'Flow-Aktionen (Aktivität melden)',
      triggers: 'Flow-Trigger (auf Fortschritt reagieren)',
      recipeOther: {
        title: 'Rezept: etwas anderes zählen, etwa eine erste Bewertung',
        steps: [
          'Füge im Editor deiner Mission eine Aufgabe mit der Aktivität „Etwas anderes“ und der Aktivitäts-ID first_review hinzu.',
          'Lege in Shopify Flow einen Workflow mit dem Trigger an, den du zählen willst, etwa „Bewertung erstellt“ deiner Bewertungs-App.',
          'Füge die Aktion „Execute mission“ (Loyalty) hinzu. Kunde: der Kunde des Triggers. Mission: {mission}. Activity ID: first_review.',
          'Schalte den Workflow ein. Ein Workflow, der Bestellungen meldet, braucht den Idempotency key order:{{order.legacyResourceId}}, damit eine Bestellung, die die App schon gezählt hat, nicht doppelt zählt.',
        ],
      },
      recipeTag: {
        title: 'Rezept: Meilenstein erreicht → Kunden taggen',
        steps: [
          'Lege einen Workflow mit dem Trigger „Streak milestone reached“ (Loyalty) an.',
          'Füge die Aktion „Kunden-Tags hinzufügen“ hinzu.',
          'Tags: loyalty-{{milestone_name}} oder ein fester Tag wie loyalty-stammkunde.',
          'Schalte den Workflow ein. Nutze den Tag in Segmenten, E-Mail-Kampagnen oder Rabatten.',
        ],
      },
      yourMission: 'der Name deiner Mission (lege zuerst die Willkommensmission an)',
    },
    preview: {
      title: '4. Als Kunde ansehen',
      intro: 'Das echte Widget mit deinen Live-Programmen, wie Gäste und angemeldete Mitglieder es sehen.',
      guest: 'Vorschau als Gast',
      member: 'Vorschau als Mitglied',
      memberNote: 'Die Mitglieder-Vorschau meldet ein Vorschau-Mitglied („{externalId}“) ohne Fortschritt an.',
      needsIds: 'Lege Launcher, Theme und Texte des Widgets an (Schritt 2), um es anzusehen.',
      frameTitle: 'Widget-Vorschau',
      more: 'Mehr auf der Widget-Seite',
    },
  },
};
