import { stringsFor, type Strings } from '@loyalty/view-model';

/**
 * The extension's own words, spoken to the staff member about the customer; the rest (in a row,
 * periods, tiers, held rewards, Redeem) are the widget's, from the view model.
 */
export interface Words {
  title: string;
  /** The block's action, which opens the modal. */
  open: string;
  /** `{n}`: the customer's balance with the points' name. */
  balance: string;
  streaks: string;
  challenges: string;
  codes: string;
  noCodes: string;
  notMember: string;
  /** The customer's member is paused by the shop (a customer tag leaves them out, say). */
  paused: string;
  pointsOff: string;
  /** `{name}`: what points are called; `{n}`: the points the customer still lacks, with their name. */
  notEnough: string;
  notRedeemable: string;
  failed: string;
  noAccess: string;
  apply: string;
  /** `{code}`: the code now on the cart. */
  applied: string;
  /** `{code}`: the code POS refused. */
  notApplied: string;
  waiting: string;
  /** `{amount}`: store credit a redemption gave the customer, which POS takes as payment. */
  credited: string;
}

const WORDS: Record<string, Words> = {
  en: {
    title: 'Loyalty',
    open: 'Redeem rewards',
    balance: 'Balance: {n}',
    streaks: 'Streaks',
    challenges: 'Challenges',
    codes: 'Codes',
    noCodes: 'No codes yet.',
    notMember: 'Not a member yet: with this customer on the sale, it counts toward their rewards.',
    paused: 'This customer’s membership is paused: their sales earn nothing and they can’t redeem.',
    pointsOff: 'Points are off in this shop, so there is nothing to redeem.',
    notEnough: 'Not enough {name}: {n} more needed.',
    notRedeemable: 'This reward can’t be redeemed right now.',
    failed: 'The loyalty program didn’t answer. Try again.',
    noAccess: 'Your POS account has no access to the loyalty app.',
    apply: 'Apply to cart',
    applied: 'Code {code} applied to the cart.',
    notApplied: 'The cart didn’t take code {code}.',
    waiting: 'The code is on its way: it will show under Codes in a moment.',
    credited: '{amount} added to the customer’s store credit, to pay with at checkout.',
  },
  fr: {
    title: 'Fidélité',
    open: 'Échanger des récompenses',
    balance: 'Solde : {n}',
    streaks: 'Séries',
    challenges: 'Défis',
    codes: 'Codes promo',
    noCodes: 'Aucun code pour l’instant.',
    notMember: 'Pas encore membre : avec ce client sur la vente, elle compte pour ses récompenses.',
    paused: 'L’adhésion de ce client est en pause : ses achats ne rapportent rien et il ne peut pas échanger.',
    pointsOff: 'Les points sont désactivés dans cette boutique : rien à échanger.',
    notEnough: 'Pas assez de {name} : il en manque {n}.',
    notRedeemable: 'Cette récompense ne peut pas être échangée pour le moment.',
    failed: 'Le programme de fidélité n’a pas répondu. Réessayez.',
    noAccess: 'Votre compte POS n’a pas accès à l’application de fidélité.',
    apply: 'Appliquer au panier',
    applied: 'Code {code} appliqué au panier.',
    notApplied: 'Le panier n’a pas accepté le code {code}.',
    waiting: 'Le code arrive : il apparaîtra sous Codes promo dans un instant.',
    credited: '{amount} ajoutés au crédit boutique du client, utilisable au paiement.',
  },
  es: {
    title: 'Fidelidad',
    open: 'Canjear recompensas',
    balance: 'Saldo: {n}',
    streaks: 'Rachas',
    challenges: 'Retos',
    codes: 'Códigos',
    noCodes: 'Aún no hay códigos.',
    notMember: 'Aún no es miembro: con este cliente en la venta, cuenta para sus recompensas.',
    paused: 'La membresía de este cliente está en pausa: sus compras no suman nada y no puede canjear.',
    pointsOff: 'Los puntos están desactivados en esta tienda, así que no hay nada que canjear.',
    notEnough: 'No hay suficientes {name}: faltan {n}.',
    notRedeemable: 'Esta recompensa no se puede canjear ahora.',
    failed: 'El programa de fidelidad no respondió. Inténtalo de nuevo.',
    noAccess: 'Tu cuenta de POS no tiene acceso a la app de fidelidad.',
    apply: 'Aplicar al carrito',
    applied: 'Código {code} aplicado al carrito.',
    notApplied: 'El carrito no aceptó el código {code}.',
    waiting: 'El código está en camino: aparecerá en Códigos en un momento.',
    credited: '{amount} añadidos al crédito de tienda del cliente, para pagar en caja.',
  },
  de: {
    title: 'Treueprogramm',
    open: 'Prämien einlösen',
    balance: 'Guthaben: {n}',
    streaks: 'Serien',
    challenges: 'Herausforderungen',
    codes: 'Rabattcodes',
    noCodes: 'Noch keine Rabattcodes.',
    notMember: 'Noch kein Mitglied: Mit diesem Kunden im Verkauf zählt er für seine Prämien.',
    paused: 'Die Mitgliedschaft dieses Kunden ist pausiert: Seine Einkäufe bringen nichts, und er kann nichts einlösen.',
    pointsOff: 'Punkte sind in diesem Shop ausgeschaltet, es gibt nichts einzulösen.',
    notEnough: 'Nicht genug {name}: Es fehlen {n}.',
    notRedeemable: 'Diese Prämie kann gerade nicht eingelöst werden.',
    failed: 'Das Treueprogramm hat nicht geantwortet. Bitte erneut versuchen.',
    noAccess: 'Ihr POS-Konto hat keinen Zugriff auf die Treue-App.',
    apply: 'Auf Warenkorb anwenden',
    applied: 'Code {code} auf den Warenkorb angewendet.',
    notApplied: 'Der Warenkorb hat den Code {code} nicht angenommen.',
    waiting: 'Der Code ist unterwegs und erscheint gleich unter Rabattcodes.',
    credited: '{amount} dem Guthaben des Kundenkontos gutgeschrieben, einlösbar beim Bezahlen.',
  },
  it: {
    title: 'Fedeltà',
    open: 'Riscatta premi',
    balance: 'Saldo: {n}',
    streaks: 'Serie',
    challenges: 'Sfide',
    codes: 'Codici',
    noCodes: 'Ancora nessun codice.',
    notMember: 'Non è ancora membro: con questo cliente sulla vendita, conta per i suoi premi.',
    paused: 'L’iscrizione di questo cliente è in pausa: i suoi acquisti non fanno guadagnare nulla e non può riscattare.',
    pointsOff: 'I punti sono disattivati in questo negozio, quindi non c’è nulla da riscattare.',
    notEnough: '{name} insufficienti: ne mancano {n}.',
    notRedeemable: 'Questo premio non può essere riscattato ora.',
    failed: 'Il programma fedeltà non ha risposto. Riprova.',
    noAccess: 'Il tuo account POS non ha accesso all’app fedeltà.',
    apply: 'Applica al carrello',
    applied: 'Codice {code} applicato al carrello.',
    notApplied: 'Il carrello non ha accettato il codice {code}.',
    waiting: 'Il codice è in arrivo: comparirà tra un attimo sotto Codici.',
    credited: '{amount} aggiunti al credito negozio del cliente, da usare al pagamento.',
  },
  pt: {
    title: 'Fidelidade',
    open: 'Resgatar recompensas',
    balance: 'Saldo: {n}',
    streaks: 'Sequências',
    challenges: 'Desafios',
    codes: 'Códigos',
    noCodes: 'Ainda não há códigos.',
    notMember: 'Ainda não é membro: com este cliente na venda, ela conta para as recompensas dele.',
    paused: 'A adesão deste cliente está pausada: as compras dele não rendem nada e ele não pode resgatar.',
    pointsOff: 'Os pontos estão desativados nesta loja, então não há nada para resgatar.',
    notEnough: '{name} insuficientes: faltam {n}.',
    notRedeemable: 'Esta recompensa não pode ser resgatada agora.',
    failed: 'O programa de fidelidade não respondeu. Tente novamente.',
    noAccess: 'Sua conta do PDV não tem acesso ao app de fidelidade.',
    apply: 'Aplicar ao carrinho',
    applied: 'Código {code} aplicado ao carrinho.',
    notApplied: 'O carrinho não aceitou o código {code}.',
    waiting: 'O código está a caminho: aparecerá em Códigos em instantes.',
    credited: '{amount} adicionados ao crédito na loja do cliente, para pagar no checkout.',
  },
  ja: {
    title: 'ロイヤルティ',
    open: 'リワードを交換',
    balance: '残高：{n}',
    streaks: '連続記録',
    challenges: 'チャレンジ',
    codes: 'コード',
    noCodes: 'まだコードはありません。',
    notMember: 'まだメンバーではありません。このお客様を販売に設定すると、リワードの対象になります。',
    paused: 'このお客様の会員資格は一時停止中です。購入で何も獲得できず、交換もできません。',
    pointsOff: 'このストアではポイントがオフのため、交換できるものはありません。',
    notEnough: '{name}が足りません。あと {n} 必要です。',
    notRedeemable: 'このリワードは現在交換できません。',
    failed: 'ロイヤルティプログラムから応答がありません。もう一度お試しください。',
    noAccess: 'お使いの POS アカウントはロイヤルティアプリにアクセスできません。',
    apply: 'カートに適用',
    applied: 'コード {code} をカートに適用しました。',
    notApplied: 'カートはコード {code} を受け付けませんでした。',
    waiting: 'コードを発行中です。まもなく「コード」に表示されます。',
    credited: '{amount}をお客様のストアクレジットに追加しました。お支払い時に使えます。',
  },
  ko: {
    title: '로열티',
    open: '리워드 교환',
    balance: '잔액: {n}',
    streaks: '연속 기록',
    challenges: '챌린지',
    codes: '코드',
    noCodes: '아직 코드가 없습니다.',
    notMember: '아직 회원이 아닙니다. 이 고객을 판매에 지정하면 리워드에 반영됩니다.',
    paused: '이 고객의 멤버십은 일시 중지되었습니다. 구매로 적립되지 않으며 교환할 수 없습니다.',
    pointsOff: '이 스토어에서는 포인트가 꺼져 있어 교환할 수 있는 것이 없습니다.',
    notEnough: '{name} 잔액이 부족합니다. {n} 더 필요합니다.',
    notRedeemable: '이 리워드는 지금 교환할 수 없습니다.',
    failed: '로열티 프로그램이 응답하지 않았습니다. 다시 시도하세요.',
    noAccess: 'POS 계정에 로열티 앱 접근 권한이 없습니다.',
    apply: '장바구니에 적용',
    applied: '코드 {code}를 장바구니에 적용했습니다.',
    notApplied: '장바구니가 코드 {code}를 받지 않았습니다.',
    waiting: '코드를 발급 중입니다. 곧 코드 아래에 표시됩니다.',
    credited: '고객의 스토어 크레딧에 {amount} 추가되었습니다. 결제 시 사용할 수 있습니다.',
  },
  'zh-CN': {
    title: '会员忠诚度',
    open: '兑换奖励',
    balance: '余额：{n}',
    streaks: '连续记录',
    challenges: '挑战',
    codes: '优惠码',
    noCodes: '暂无优惠码。',
    notMember: '尚未成为会员：将此顾客加入本次销售后，这笔消费会计入其奖励。',
    paused: '此顾客的会员资格已暂停：其消费不会获得任何奖励，也无法兑换。',
    pointsOff: '本店未开启积分，没有可兑换的奖励。',
    notEnough: '{name}不足：还差 {n}。',
    notRedeemable: '此奖励目前无法兑换。',
    failed: '会员计划没有响应，请重试。',
    noAccess: '您的 POS 账户无权使用会员应用。',
    apply: '应用到购物车',
    applied: '优惠码 {code} 已应用到购物车。',
    notApplied: '购物车未接受优惠码 {code}。',
    waiting: '优惠码正在生成，稍后将显示在“优惠码”下。',
    credited: '已将{amount}添加到顾客的商店余额，结账时可用。',
  },
};

export const LANGUAGES = Object.keys(WORDS);

export const wordsFor = (lang: string): { t: Strings; w: Words } => ({ t: stringsFor(lang), w: WORDS[lang] ?? WORDS.en! });
