import type { Messages } from '../messages';

export const help: Messages['help'] = {
  title: 'Assistenza',
  footer: 'Scopri di più su {topic}',
  footerGeneral: 'Scopri di più nella guida',
  topics: {
    setup: {
      title: 'Primi passi',
      body: 'La guida alla configurazione nella panoramica ti accompagna nella creazione del primo programma, nell’attivazione del widget fedeltà nel tuo tema e nella verifica che i clienti lo vedano.',
    },
    programs: {
      title: 'Serie, sfide e missioni',
      body: 'Una serie premia i membri che tornano periodo dopo periodo, una sfida chi raggiunge un obiettivo entro un periodo, una missione chi completa un elenco di attività. Ognuna può avere traguardi che assegnano premi lungo il percorso.',
    },
    points: {
      title: 'Punti e livelli VIP',
      body: 'I membri guadagnano punti con gli ordini, con la registrazione, con l’iscrizione alla tua newsletter, nel giorno del compleanno, seguendo il tuo negozio sui social media, invitando amici e al raggiungimento dei traguardi, e li spendono nei premi a cui assegni un costo in punti. I livelli VIP dipendono dai punti che un membro ha guadagnato nel periodo dei livelli: ogni livello può moltiplicare i punti guadagnati dai suoi membri e assegnare un premio a chi vi accede. Se arrivi da un’altra app fedeltà, puoi importare i saldi dei tuoi clienti con un file CSV dalla pagina Punti.',
    },
    rewards: {
      title: 'Premi',
      body: 'Un premio è ciò che un membro riceve per un traguardo o per aver completato un programma: uno sconto Shopify, un codice tra quelli che carichi o che l’app genera, oppure credito del negozio.',
    },
    earnings: {
      title: 'Quanto rende il tuo programma',
      body: 'La panoramica confronta le vendite dei membri del programma con quelle dei membri del gruppo di controllo, così vedi le entrate che il programma aggiunge e non le vendite che ci sarebbero state comunque.',
    },
    leaderboards: {
      title: 'Classifiche',
      body: 'Una classifica ordina i membri di un programma in base alla sequenza attuale o migliore, ai progressi nel periodo di una sfida o a quante volte hanno completato una missione. I clienti la vedono come scheda del widget, con il nome che scegli tu.',
    },
    members: {
      title: 'Membri',
      body: 'Ogni cliente che partecipa è un membro. La pagina di un membro mostra i suoi progressi, i premi e i codici, e rimanda al cliente in Shopify.',
    },
    notifications: {
      title: 'Notifiche',
      body: 'Una regola di notifica invia un messaggio quando succede qualcosa nel tuo programma, ad esempio il raggiungimento di un traguardo. Scegli i momenti, il canale di invio e il messaggio; l’anteprima lo mostra con dati di esempio.',
    },
    emails: {
      title: 'Modelli email',
      body: 'Un modello email contiene l’oggetto e il messaggio. Inserisci dettagli come il nome del membro dall’elenco accanto al messaggio: vengono compilati per ogni membro al momento dell’invio.',
    },
    widget: {
      title: 'Widget e aspetto',
      body: 'Il widget è il pannello fedeltà che i clienti aprono da un pulsante nel tuo negozio. In Aspetto imposti i colori, la posizione del pulsante e i testi; l’anteprima mostra il widget reale mentre lo modifichi.',
    },
    webhooks: {
      title: 'Webhook',
      body: 'I webhook inviano gli eventi del tuo programma a un altro sistema che gestisci, ad esempio un CRM.',
    },
    dataRequests: {
      title: 'Richieste di dati',
      body: 'Quando un cliente chiede i propri dati o la loro cancellazione, Shopify lo comunica all’app. Questa pagina elenca queste richieste e ciò che l’app ha fatto.',
    },
    advanced: {
      title: 'Tutti i campi',
      body: 'Il menu Avanzate di ogni editor apre tutti i campi che il servizio fedeltà memorizza per un record. Raramente ti servirà: gli editor coprono ciò che vedono i clienti.',
    },
  },
};
