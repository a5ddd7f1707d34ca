import { stringsFor, type Strings } from '@loyalty/view-model';

/** The block's own words; the rest (points' name, what a reward gives) are the widget's, from the view model. */
export interface Words {
  title: string;
  apply: string;
  applied: string;
  /** `{n}`: the reward's cost with the points' name, "500 Stars". */
  redeemApply: string;
  /** `{n}`: the points still missing, with their name. */
  short: string;
  refused: string;
  notAllowed: string;
  preparing: string;
  credit: string;
  failed: string;
}

const WORDS: Record<string, Words> = {
  en: {
    title: 'Your rewards',
    apply: 'Apply',
    applied: 'Applied',
    redeemApply: 'Redeem {n} and apply',
    short: 'You need {n} more for this reward.',
    refused: 'The checkout did not accept this code.',
    notAllowed: 'Discount codes can’t be added to this checkout.',
    preparing: 'Your code is being prepared. It will be here in a moment.',
    credit: 'Added to your store credit: you can use it at payment.',
    failed: 'This reward can’t be redeemed right now.',
  },
  fr: {
    title: 'Vos récompenses',
    apply: 'Appliquer',
    applied: 'Appliqué',
    redeemApply: 'Échanger {n} et appliquer',
    short: 'Il vous manque {n} pour cette récompense.',
    refused: 'Le paiement n’a pas accepté ce code.',
    notAllowed: 'Les codes de réduction ne peuvent pas être ajoutés à ce paiement.',
    preparing: 'Votre code est en préparation. Il arrive dans un instant.',
    credit: 'Ajouté à votre crédit en boutique : vous pourrez l’utiliser au paiement.',
    failed: 'Cette récompense ne peut pas être échangée pour le moment.',
  },
  es: {
    title: 'Tus recompensas',
    apply: 'Aplicar',
    applied: 'Aplicado',
    redeemApply: 'Canjear {n} y aplicar',
    short: 'Te faltan {n} para esta recompensa.',
    refused: 'El pago no ha aceptado este código.',
    notAllowed: 'No se pueden añadir códigos de descuento a este pago.',
    preparing: 'Estamos preparando tu código. Estará aquí en un momento.',
    credit: 'Añadido a tu crédito en tienda: puedes usarlo al pagar.',
    failed: 'Esta recompensa no se puede canjear ahora.',
  },
  de: {
    title: 'Deine Prämien',
    apply: 'Anwenden',
    applied: 'Angewendet',
    redeemApply: '{n} einlösen und anwenden',
    short: 'Dir fehlen {n} für diese Prämie.',
    refused: 'Der Checkout hat diesen Code nicht akzeptiert.',
    notAllowed: 'In diesem Checkout können keine Rabattcodes hinzugefügt werden.',
    preparing: 'Dein Code wird vorbereitet. Er ist gleich da.',
    credit: 'Deinem Shop-Guthaben gutgeschrieben: Du kannst es bei der Zahlung verwenden.',
    failed: 'Diese Prämie kann gerade nicht eingelöst werden.',
  },
  it: {
    title: 'I tuoi premi',
    apply: 'Applica',
    applied: 'Applicato',
    redeemApply: 'Riscatta {n} e applica',
    short: 'Ti mancano {n} per questo premio.',
    refused: 'Il checkout non ha accettato questo codice.',
    notAllowed: 'Non è possibile aggiungere codici sconto a questo checkout.',
    preparing: 'Stiamo preparando il tuo codice. Sarà qui tra un attimo.',
    credit: 'Aggiunto al tuo credito del negozio: puoi usarlo al pagamento.',
    failed: 'Questo premio non può essere riscattato al momento.',
  },
  pt: {
    title: 'Suas recompensas',
    apply: 'Aplicar',
    applied: 'Aplicado',
    redeemApply: 'Resgatar {n} e aplicar',
    short: 'Faltam {n} para esta recompensa.',
    refused: 'O checkout não aceitou este código.',
    notAllowed: 'Não é possível adicionar códigos de desconto a este checkout.',
    preparing: 'Seu código está sendo preparado. Ele vai aparecer aqui em instantes.',
    credit: 'Adicionado ao seu crédito na loja: você pode usá-lo no pagamento.',
    failed: 'Esta recompensa não pode ser resgatada agora.',
  },
  ja: {
    title: 'あなたのリワード',
    apply: '適用',
    applied: '適用済み',
    redeemApply: '{n}を交換して適用',
    short: 'このリワードにはあと{n}必要です。',
    refused: 'このコードはチェックアウトで受け付けられませんでした。',
    notAllowed: 'このチェックアウトには割引コードを追加できません。',
    preparing: 'コードを準備しています。まもなく表示されます。',
    credit: 'ストアクレジットに追加されました。お支払い時にご利用いただけます。',
    failed: '現在このリワードは交換できません。',
  },
  ko: {
    title: '내 리워드',
    apply: '적용',
    applied: '적용됨',
    redeemApply: '{n} 교환하고 적용',
    short: '이 리워드까지 {n} 더 필요합니다.',
    refused: '체크아웃에서 이 코드를 받지 않았습니다.',
    notAllowed: '이 체크아웃에는 할인 코드를 추가할 수 없습니다.',
    preparing: '코드를 준비하고 있습니다. 잠시 후 여기에 표시됩니다.',
    credit: '스토어 크레딧에 추가되었습니다. 결제 시 사용할 수 있습니다.',
    failed: '지금은 이 리워드를 교환할 수 없습니다.',
  },
  'zh-CN': {
    title: '您的奖励',
    apply: '使用',
    applied: '已使用',
    redeemApply: '兑换 {n} 并使用',
    short: '兑换此奖励还差 {n}。',
    refused: '结账未接受此代码。',
    notAllowed: '此结账无法添加折扣码。',
    preparing: '您的代码正在准备中，稍后就会显示在这里。',
    credit: '已存入您的商店余额，可在付款时使用。',
    failed: '此奖励暂时无法兑换。',
  },
};

export const LANGUAGES = Object.keys(WORDS);

export const wordsFor = (lang: string): { t: Strings; w: Words } => ({ t: stringsFor(lang), w: WORDS[lang] ?? WORDS.en! });
