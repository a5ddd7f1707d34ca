import { stringsFor, type Strings } from '@loyalty/view-model';

/** The block's own words; the rest (in a row, tasks, periods, tiers, held rewards) are the widget's, from the view model. */
export interface Words {
  title: string;
  /** `{n}`: the points with their name, "80 Stars". */
  earned: string;
  /** `{n}`: what refunds or a cancellation took back of them. */
  takenBack: string;
  /** `{n}`: the member's balance with the points' name. */
  balance: string;
  counted: string;
  rewards: string;
  waiting: string;
  later: string;
  returned: string;
  guestTitle: string;
  guestBody: string;
  createAccount: string;
  /** The referral link's copy button once it is copied (checkout has no toast). */
  linkCopied: string;
}

const WORDS: Record<string, Words> = {
  en: {
    title: 'Your rewards for this order',
    earned: 'This order earned you {n}.',
    takenBack: '{n} taken back by a refund or cancellation.',
    balance: 'Your balance: {n}',
    counted: 'This order counted for',
    rewards: 'Rewards you earned',
    waiting: 'Adding up what this order earned…',
    later: 'What this order earned will show here shortly.',
    returned: 'This order was returned or cancelled, so what it earned was taken back.',
    guestTitle: 'Earn rewards when you shop',
    guestBody: 'Create an account with the email you used for this order within 30 days: this order counts, and so do your next ones.',
    createAccount: 'Create an account',
    linkCopied: 'Link copied',
  },
  fr: {
    title: 'Vos récompenses pour cette commande',
    earned: 'Cette commande vous a rapporté {n}.',
    takenBack: '{n} repris après un remboursement ou une annulation.',
    balance: 'Votre solde : {n}',
    counted: 'Cette commande a compté pour',
    rewards: 'Récompenses obtenues',
    waiting: 'Calcul de ce que cette commande vous a rapporté…',
    later: 'Ce que cette commande vous a rapporté apparaîtra ici sous peu.',
    returned: 'Cette commande a été retournée ou annulée : ce qu’elle vous avait rapporté a été repris.',
    guestTitle: 'Gagnez des récompenses à chaque achat',
    guestBody:
      'Créez un compte avec l’e-mail utilisé pour cette commande dans les 30 jours : cette commande comptera, tout comme les suivantes.',
    createAccount: 'Créer un compte',
    linkCopied: 'Lien copié',
  },
  es: {
    title: 'Tus recompensas por este pedido',
    earned: 'Este pedido te ha dado {n}.',
    takenBack: '{n} retirados por un reembolso o una cancelación.',
    balance: 'Tu saldo: {n}',
    counted: 'Este pedido ha contado para',
    rewards: 'Recompensas obtenidas',
    waiting: 'Calculando lo que te ha dado este pedido…',
    later: 'Lo que te ha dado este pedido aparecerá aquí en breve.',
    returned: 'Este pedido se devolvió o se canceló, así que lo que te dio se ha retirado.',
    guestTitle: 'Gana recompensas con tus compras',
    guestBody:
      'Crea una cuenta con el correo que usaste en este pedido en los próximos 30 días: este pedido contará, y también los siguientes.',
    createAccount: 'Crear una cuenta',
    linkCopied: 'Enlace copiado',
  },
  de: {
    title: 'Deine Prämien für diese Bestellung',
    earned: 'Diese Bestellung hat dir {n} eingebracht.',
    takenBack: '{n} durch eine Erstattung oder Stornierung zurückgenommen.',
    balance: 'Dein Guthaben: {n}',
    counted: 'Diese Bestellung zählte für',
    rewards: 'Deine verdienten Prämien',
    waiting: 'Wir rechnen zusammen, was diese Bestellung eingebracht hat …',
    later: 'Was diese Bestellung eingebracht hat, erscheint hier in Kürze.',
    returned: 'Diese Bestellung wurde zurückgegeben oder storniert, daher wurde zurückgenommen, was sie eingebracht hat.',
    guestTitle: 'Prämien bei jedem Einkauf',
    guestBody:
      'Erstelle innerhalb von 30 Tagen ein Konto mit der E-Mail-Adresse dieser Bestellung: Diese Bestellung zählt dann mit, ebenso deine nächsten.',
    createAccount: 'Konto erstellen',
    linkCopied: 'Link kopiert',
  },
  it: {
    title: 'I tuoi premi per questo ordine',
    earned: 'Questo ordine ti ha fatto guadagnare {n}.',
    takenBack: '{n} ripresi per un rimborso o un annullamento.',
    balance: 'Il tuo saldo: {n}',
    counted: 'Questo ordine è valso per',
    rewards: 'Premi ottenuti',
    waiting: 'Stiamo calcolando cosa ti ha fatto guadagnare questo ordine…',
    later: 'Quello che hai guadagnato con questo ordine apparirà qui a breve.',
    returned: 'Questo ordine è stato reso o annullato, quindi quanto aveva fatto guadagnare è stato ripreso.',
    guestTitle: 'Guadagna premi con i tuoi acquisti',
    guestBody: "Crea un account entro 30 giorni con l'e-mail usata per questo ordine: questo ordine conterà, e così i prossimi.",
    createAccount: 'Crea un account',
    linkCopied: 'Link copiato',
  },
  pt: {
    title: 'Suas recompensas por este pedido',
    earned: 'Você ganhou {n} com este pedido.',
    takenBack: 'Estorno de {n} por reembolso ou cancelamento.',
    balance: 'Seu saldo: {n}',
    counted: 'Este pedido contou para',
    rewards: 'Recompensas obtidas',
    waiting: 'Calculando o que você ganhou com este pedido…',
    later: 'O que você ganhou com este pedido vai aparecer aqui em breve.',
    returned: 'Este pedido foi devolvido ou cancelado, então o que você ganhou com ele foi estornado.',
    guestTitle: 'Ganhe recompensas nas suas compras',
    guestBody: 'Crie uma conta nos próximos 30 dias com o e-mail que você usou neste pedido: este pedido conta, assim como os próximos.',
    createAccount: 'Criar uma conta',
    linkCopied: 'Link copiado',
  },
  ja: {
    title: 'このご注文で獲得したリワード',
    earned: 'このご注文で{n}を獲得しました。',
    takenBack: '返金またはキャンセルにより{n}が取り消されました。',
    balance: '残高：{n}',
    counted: 'このご注文が加算されたプログラム',
    rewards: '獲得したリワード',
    waiting: 'このご注文で獲得した内容を集計しています…',
    later: 'このご注文で獲得した内容はまもなくここに表示されます。',
    returned: 'このご注文は返品またはキャンセルされたため、獲得した内容は取り消されました。',
    guestTitle: 'お買い物でリワードを獲得',
    guestBody:
      '30日以内にこのご注文のメールアドレスでアカウントを作成すると、このご注文も次回以降のご注文もポイントとリワードの対象になります。',
    createAccount: 'アカウントを作成',
    linkCopied: 'リンクをコピーしました',
  },
  ko: {
    title: '이 주문으로 받은 리워드',
    earned: '이 주문으로 {n} 적립되었습니다.',
    takenBack: '환불 또는 취소로 {n} 회수되었습니다.',
    balance: '내 잔액: {n}',
    counted: '이 주문이 반영된 프로그램',
    rewards: '받은 리워드',
    waiting: '이 주문으로 적립된 내역을 계산하고 있습니다…',
    later: '이 주문으로 적립된 내역이 곧 여기에 표시됩니다.',
    returned: '이 주문은 반품 또는 취소되어 적립된 내역이 회수되었습니다.',
    guestTitle: '쇼핑하고 리워드를 받으세요',
    guestBody: '30일 이내에 이 주문에 사용한 이메일로 계정을 만들면 이 주문과 다음 주문 모두 포인트와 리워드에 반영됩니다.',
    createAccount: '계정 만들기',
    linkCopied: '링크를 복사했습니다',
  },
  'zh-CN': {
    title: '此订单获得的奖励',
    earned: '此订单为您赢得 {n}。',
    takenBack: '因退款或取消，已扣回 {n}。',
    balance: '您的余额：{n}',
    counted: '此订单计入了',
    rewards: '您获得的奖励',
    waiting: '正在统计此订单获得的奖励…',
    later: '此订单获得的奖励稍后会显示在这里。',
    returned: '此订单已退货或取消，其获得的奖励已被扣回。',
    guestTitle: '购物即可赢取奖励',
    guestBody: '在 30 天内使用此订单的邮箱创建账户，此订单及之后的订单都会计入积分和奖励。',
    createAccount: '创建账户',
    linkCopied: '链接已复制',
  },
};

export const LANGUAGES = Object.keys(WORDS);

export const wordsFor = (lang: string): { t: Strings; w: Words } => ({ t: stringsFor(lang), w: WORDS[lang] ?? WORDS.en! });
