import type { Messages } from '../messages';

export const onboarding: Messages['onboarding'] = {
  title: 'Lancia il tuo programma fedeltà',
  progress: '{done} di {total} passaggi completati',
  show: 'Mostra passaggio',
  hide: 'Nascondi elenco',
  reopen: 'Mostra l’elenco di configurazione',
  folded: 'Elenco di configurazione: {done} di {total} passaggi completati.',
  done: 'Completato',
  toDo: 'Da fare',
  markDone: 'Segna come completato',
  markUndone: 'Segna come da fare',
  steps: {
    program: {
      title: '1. Scegli un programma',
      intro:
        'Scegli un programma già pronto: viene creato in un solo passaggio con i suoi traguardi e premi. Potrai modificare tutto in seguito.',
      choose: 'Scegli',
      chosen: 'Scelto',
      status: 'Avvialo',
      live: 'Attivo subito: i clienti lo vedono e accumulano progressi',
      draft: 'Come bozza: nel negozio non cambia nulla finché non lo attivi',
      shopifyDiscounts: 'Emetti i premi come sconti Shopify',
      shopifyDiscountsHelp:
        'Ogni premio diventa in Shopify uno sconto con codice monouso per quel cliente. In caso contrario, il servizio fedeltà genera i propri codici.',
      language:
        'I testi per i clienti sono scritti nella lingua principale del tuo negozio, se il widget la supporta, altrimenti in inglese.',
      create: 'Crea programma',
      created: 'Creazione completata: «{name}» ({status}).',
      failed: 'Non è stato possibile creare il programma: {message}',
      nothingKept: 'Non è stato conservato nulla.',
      leftOver: 'Non è stato possibile rimuovere questi record: {names}.',
      busy: 'Questo programma è già in fase di creazione. Attendi un momento, poi controlla i tuoi programmi qui sotto.',
      open: 'Apri',
      openTiers: 'Apri i livelli VIP',
      goLive: 'Attiva',
      launched: 'Attivazione completata: «{name}».',
      yours: 'I tuoi programmi',
      statuses: { live: 'Attivo', draft: 'Bozza', paused: 'In pausa' },
      kinds: { streak: 'Serie', challenge: 'Sfida', mission: 'Missione', points_setting: 'Punti' },
      templates: {
        'daily-visit': {
          title: 'Serie di visite giornaliere',
          summary: 'I clienti tornano ogni giorno per una settimana.',
          creates: [
            'Una serie giornaliera di 7 giorni',
            'La visita di un cliente che ha effettuato l’accesso viene conteggiata automaticamente, una volta al giorno',
            'Un premio a 3 giorni (10% di sconto) e a 7 giorni (20% di sconto)',
          ],
        },
        'weekly-freezes': {
          title: 'Serie settimanale con congelamenti',
          summary: 'Un ordine a settimana, per tutto il tempo che vogliono.',
          creates: [
            'Una serie settimanale senza fine: ogni ordine pagato conta per la sua settimana',
            'Fino a 2 congelamenti, uno ottenuto ogni 4 settimane, ciascuno dei quali copre una settimana saltata',
            'Un premio a 4 settimane (10% di sconto) e a 12 settimane (25% di sconto), trattenuto 14 giorni per i resi',
          ],
        },
        'monthly-spend': {
          title: 'Sfida di spesa mensile',
          summary: 'Quanto speso in prodotti con gli ordini pagati si somma ogni mese di calendario.',
          creates: [
            'Una sfida mensile che somma gli importi dei prodotti degli ordini pagati fino a {target}; i rimborsi sottraggono la loro parte',
            'Un premio a {half} ({halfOff} di sconto) e a {target} ({fullOff} di sconto), trattenuto 14 giorni per i resi',
            'Una classifica dei clienti che spendono di più nel mese',
          ],
        },
        'welcome-mission': {
          title: 'Missione di benvenuto',
          summary: 'I primi due passi di un nuovo cliente.',
          creates: [
            'Attività: creare un account e pagare il primo ordine, entrambe conteggiate automaticamente',
            'Un premio di benvenuto del 15% quando sono completate entrambe, trattenuto 14 giorni per i resi',
          ],
        },
        'points-tiers': {
          title: 'Punti e livelli',
          summary: 'I clienti accumulano punti con ogni ordine e li spendono in premi.',
          creates: [
            'Punti attivi: 1 punto per ogni unità di valuta spesa in prodotti, 100 punti per la registrazione e 100 per il compleanno',
            'Inviti: 500 punti al cliente il cui link porta un nuovo cliente e 250 a quest’ultimo sul suo primo ordine',
            'Premi da riscattare: {pointsOff} di sconto per 500 punti, 10% di sconto per 1.000 punti',
            'Livelli in base ai punti guadagnati in 12 mesi: Argento da 500 (punti ×1,2), Oro da 1.500 (punti ×1,5)',
          ],
        },
      },
    },
    embed: {
      title: '2. Mostralo nel tuo negozio',
      intro:
        'Attiva l’incorporamento app «Loyalty widget» nel tuo tema pubblicato: l’editor di temi si apre in una nuova scheda con l’incorporamento già attivato.',
      openEditor: 'Attiva il widget nell’editor di temi',
      then: 'Poi seleziona Salva nell’editor di temi. Questo passaggio si completa da solo quando torni in questa scheda.',
      missingRecords: 'Il widget richiede un pulsante, un tema e dei testi attivi.',
      createRecords: 'Creali',
      recordsCreated: 'Il pulsante, il tema e i testi del widget sono pronti.',
      ok: 'Il widget è attivo nel tuo tema pubblicato «{theme}».',
      reasons: {
        unreadable: 'Non è stato possibile leggere il tuo tema pubblicato: {detail}',
        no_main_theme: 'Il tuo negozio non ha un tema pubblicato.',
        not_added: 'Il widget non è ancora attivo nel tuo tema pubblicato.',
        disabled: 'Il widget è disattivato nel tuo tema pubblicato «{theme}».',
      },
    },
    automate: {
      title: '3. Automatizza',
      intro:
        'Ordini pagati, rimborsi, annullamenti, registrazioni e visite vengono già conteggiati: le regole di ogni programma, nel suo editor, indicano cosa lo fa avanzare. Shopify Flow serve per tutto il resto: le azioni inviano altre attività, i trigger avviano i flussi di lavoro.',
      actions: 'Azioni Flow (inviano attività)',
      triggers: 'Trigger Flow (reagiscono ai progressi)',
      recipeOther: {
        title: 'Ricetta: conteggiare qualcos’altro, ad esempio una prima recensione',
        steps: [
          'Nell’editor della tua missione, aggiungi un’attività di tipo «Altro» con ID attività first_review.',
          'In Shopify Flow, crea un flusso di lavoro con il trigger che vuoi conteggiare, ad esempio «Review created» della tua app di recensioni.',
          'Aggiungi l’azione «Execute mission» (Loyalty). Customer: il cliente del trigger. Mission: {mission}. Activity ID: first_review.',
          'Attiva il flusso di lavoro. Un flusso di lavoro che invia ordini richiede il campo Idempotency key impostato su order:{{order.legacyResourceId}}, così un ordine già conteggiato dall’app non viene conteggiato due volte.',
        ],
      },
      recipeTag: {
        title: 'Ricetta: traguardo raggiunto → aggiungi un tag al cliente',
        steps: [
          'Crea un flusso di lavoro con il trigger «Streak milestone reached» (Loyalty).',
          'Aggiungi l’azione «Aggiungi tag cliente».',
          'Tag: loyalty-{{milestone_name}}, oppure un tag fisso come loyalty-abituale.',
          'Attiva il flusso di lavoro. Usa il tag nei segmenti, nelle campagne email o negli sconti.',
        ],
      },
      yourMission: 'il nome della tua missione (crea prima la missione di benvenuto)',
    },
    preview: {
      title: '4. Guardalo come un cliente',
      intro: 'Il widget reale con i tuoi programmi attivi, come lo vede un ospite e come lo vede un membro che ha effettuato l’accesso.',
      guest: 'Anteprima come ospite',
      member: 'Anteprima come membro',
      memberNote: 'L’anteprima come membro esegue l’accesso con un membro di prova («{externalId}») che non ha ancora progressi.',
      needsIds: 'Crea il pulsante, il tema e i testi del widget (passaggio 2) per visualizzarne l’anteprima.',
      frameTitle: 'Anteprima del widget',
      more: 'Altro nella pagina Widget',
    },
  },
};
