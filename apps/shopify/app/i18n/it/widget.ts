import type { Messages } from '../messages';

export const widget: Messages['widget'] = {
  title: 'Widget',
  new: 'Nuovo',
  preview: 'Anteprima in tempo reale',
  previewHelp:
    'Il negozio online mostra il widget fluttuante, il tema e il modello attivi meno recenti (contrassegnati con «Nel tuo negozio»): l’app li passa da sola all’incorporamento app «Loyalty widget». Qui puoi visualizzare l’anteprima di ciascuno.',
  onStore: 'Nel tuo negozio',
  show: 'Mostra anteprima',
  incomplete: 'Crea un widget fluttuante, un tema e un modello per visualizzare l’anteprima del widget.',
  frameTitle: 'Anteprima del widget',
  frameNote: 'Anteprima del negozio online (vista ospite)',
  page: 'Una pagina fedeltà',
  pageHelp:
    'Mostra l’intero programma in una pagina del tuo negozio, ad esempio una pagina «Premi»: i modi per guadagnare punti, i premi da riscattare e i livelli e, per un cliente che ha effettuato l’accesso, i suoi punti e un pulsante Riscatta. Richiede che l’incorporamento app «Loyalty widget» sia attivo.',
  addPage: 'Aggiungi a una pagina nell’editor di temi',
  product: 'Punti nelle pagine prodotto e carrello',
  productHelp:
    'Sotto il prezzo di un prodotto, quanto fa guadagnare acquistarlo (“Guadagna 39 punti con questo acquisto”), per la variante e la quantità scelte; nella pagina del carrello, quanto fa guadagnare l’ordine, sconti e punti per ordine inclusi. Entrambi contano il moltiplicatore del livello di un cliente che ha effettuato l’accesso e un evento punti bonus in corso, appaiono finché i punti sono attivi e gli ordini li fanno guadagnare, non richiedono l’incorporamento app e non promettono nulla ai clienti che escludi per tag.',
  addProduct: 'Aggiungi alle pagine prodotto nell’editor di temi',
  addCart: 'Aggiungi alla pagina del carrello nell’editor di temi',
  reminder: 'Un promemoria accanto al pulsante',
  reminderHelp:
    'Una volta per visita, pochi secondi dopo l’apertura di una pagina, il widget ricorda a un ospite cosa si ottiene creando un account e a un membro quale premio coprono già i suoi punti o quanti ne mancano per il più vicino; cliccandolo si aprono i suoi punti. È attivo a meno che tu non deselezioni «Ricorda ai clienti i loro punti» nell’incorporamento app «Loyalty widget».',
  reminderSettings: 'Apri l’incorporamento app nell’editor di temi',
};
