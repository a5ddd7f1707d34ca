import type { Messages } from '../messages';

export const tiers: Messages['tiers'] = {
  pointsWord: 'punti',
  list: {
    title: 'Livelli VIP',
    new: 'Nuovo livello',
    intro:
      'I membri salgono di livello guadagnando {points}. Un livello moltiplica ciò che guadagnano i suoi membri e può assegnare un premio una sola volta, la prima volta che lo raggiungono.',
    window: {
      months:
        'Il livello di un membro conta il totale di {points} guadagnato negli ultimi {months} mesi, quindi chi smette di acquistare scende di livello man mano che i {points} meno recenti escono da questo periodo.',
      lifetime: 'Il livello di un membro conta il totale di {points} guadagnato da sempre, quindi nessuno scende di livello.',
    },
    settings: 'Impostazioni dei punti',
    pointsOff: 'I punti sono disattivati: nessuno guadagna {points} né sale di livello finché non li attivi.',
    from: 'Da {threshold} {points}',
    earns: 'guadagna {points} ×{multiplier}',
    earnsUsual: 'guadagna {points} come di consueto',
    entryReward: 'Premio al raggiungimento: {reward}',
    members: { one: '{count} membro', other: '{count} membri' },
    noEntryReward: 'Nessun premio al raggiungimento',
    goneReward: 'un premio che non esiste più',
    allRecords: 'Tutti i livelli come record',
    empty: {
      heading: 'Premia i tuoi migliori clienti con i livelli VIP',
      body: 'I membri che guadagnano più {points} raggiungono livelli superiori, come Argento e Oro, dove guadagnano più velocemente e ricevono un premio all’arrivo.',
      action: 'Crea il primo livello',
    },
  },
  onPointsPage: {
    title: 'Livelli VIP',
    body: 'I membri che guadagnano più punti raggiungono livelli che moltiplicano ciò che guadagnano e assegnano un premio all’arrivo.',
    action: 'Modifica i livelli VIP',
  },
  editor: {
    newTitle: 'Nuovo livello',
    deleteMembers: {
      one: 'Al momento 1 membro è in questo livello: non sarà in nessun livello finché i suoi prossimi punti, o il controllo giornaliero, non lo collocheranno in un altro.',
      other:
        'Al momento {count} membri sono in questo livello: non saranno in nessun livello finché i loro prossimi punti, o il controllo giornaliero, non li collocheranno in un altro.',
    },
    sections: { tier: 'Livello', perks: 'Vantaggi', shopper: 'Cosa vedono i clienti' },
    name: { label: 'Nome', help: 'I clienti lo vedono nel widget e nel loro account, ad esempio Oro.' },
    threshold: {
      label: '{points} per raggiungerlo',
      help: 'I membri raggiungono questo livello quando il totale di {points} guadagnato nel periodo dei livelli arriva a questo numero. 0: ogni membro parte da qui.',
      taken: 'Anche {tier} parte da questo numero: assegna a ogni livello attivo un numero diverso.',
    },
    multiplier: {
      label: 'Moltiplicatore di punti',
      help: 'I membri di questo livello guadagnano {points} con questo moltiplicatore, da 1 a 10, ad esempio 1,5 (arrotondato per difetto).',
      oneDecimal: '{label} può avere al massimo un decimale, ad esempio 1,5.',
    },
    entryReward: {
      label: 'Premio al raggiungimento',
      help: 'Assegnato una sola volta per membro, la prima volta che raggiunge questo livello. Un membro che salta un livello riceve solo il premio del livello in cui arriva.',
      none: 'Nessun premio',
    },
    status: { help: 'Solo i livelli attivi contengono membri e sono visibili ai clienti.' },
    description: {
      label: 'Cosa ottengono i membri di questo livello',
      help: 'I clienti lo leggono accanto al livello, ad esempio «Spedizione gratuita su ogni ordine».',
    },
  },
};
