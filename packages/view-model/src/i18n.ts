/**
 * The few interface words the template does not carry, per language the API accepts. The
 * merchant's own texts (titles, buttons, the copied message) come from the template.
 */
export interface Strings {
  loading: string;
  error: string;
  retry: string;
  close: string;
  copy: string;
  next: string;
  reached: string;
  empty: string;
  pending: string;
  /** `{date}`: when a held reward's code is issued (CONTRACT §17). */
  heldUntil: string;
  /** A reward a refund or cancellation took back. */
  revoked: string;
  completed: string;
  /** `{n}`: consecutive periods. */
  inARow: string;
  /** `{d}` of `{n}` tasks. */
  tasks: string;
  daily: string;
  weekly: string;
  monthly: string;
  leaderboard: string;
  /** The tabs' titles where the template has none in any language. */
  streaks: string;
  challenges: string;
  missions: string;
  rewards: string;
  /** The member's own row on a leaderboard. */
  you: string;
  /** `{n}`: members on the leaderboard. */
  ranked: string;
  notRanked: string;
  /** `{n}`: streak freezes the member holds. */
  freezes: string;
  /** A period a freeze covered. */
  frozen: string;
  /** `{v}`: what a reward takes off, a formatted percentage or amount of the shop's currency. */
  off: string;
  /** The Rewards tab of a guest: the header above already has the sign-in buttons. */
  signInForRewards: string;
  /** What points are called when the merchant has not named them (CONTRACT §19). */
  points: string;
  waysToEarn: string;
  /** Points per unit of the shop's currency: `{amount}` is one unit of it (`€1`), or `1` where the storefront does not say which. */
  perSpend: string;
  perOrder: string;
  onSignUp: string;
  toRedeem: string;
  redeem: string;
  /** `{n}`: the points a member still lacks for a reward, with their name. */
  toGo: string;
  /** `{name}`: what points are called. */
  notEnough: string;
  redeemed: string;
  /** `{n}`: the points still to earn, with their name; `{tier}`: the next tier. */
  toNextTier: string;
  signInToRedeem: string;
  /** A reward that gave points: they went to the balance (its amount may be the tier's multiple). */
  credited: string;
  /** `{date}`: when a code or credit stopped working. */
  expired: string;
}

const en: Strings = {
  loading: 'Loading…',
  error: 'Rewards are unavailable right now.',
  retry: 'Try again',
  close: 'Close',
  copy: 'Copy code',
  next: 'Next',
  reached: 'Reached',
  empty: 'Nothing here yet.',
  pending: 'Your code is on its way.',
  heldUntil: 'Yours on {date}, once the return window has passed.',
  revoked: 'Taken back: the purchase that earned it was returned or cancelled.',
  completed: 'Completed',
  inARow: '{n} in a row',
  tasks: '{d} of {n} tasks done',
  daily: 'Today',
  weekly: 'This week',
  monthly: 'This month',
  leaderboard: 'Leaderboard',
  streaks: 'Streaks',
  challenges: 'Challenges',
  missions: 'Missions',
  rewards: 'Rewards',
  you: 'You',
  ranked: '{n} ranked',
  notRanked: 'You are not ranked yet.',
  freezes: 'Freezes: {n}',
  frozen: 'Frozen',
  off: '{v} off',
  signInForRewards: 'Sign in to see the rewards you have earned.',
  points: 'Points',
  waysToEarn: 'Ways to earn',
  perSpend: 'For every {amount} spent',
  perOrder: 'Every order',
  onSignUp: 'Creating an account',
  toRedeem: 'Rewards to redeem',
  redeem: 'Redeem',
  toGo: '{n} to go',
  notEnough: 'Not enough {name} for this reward.',
  redeemed: 'Redeemed!',
  toNextTier: '{n} to {tier}',
  signInToRedeem: 'Sign in to redeem.',
  credited: 'Added to your balance.',
  expired: 'Expired on {date}.',
};

const LANGUAGES: Record<string, Strings> = {
  en,
  fr: {
    loading: 'Chargement…',
    error: 'Les récompenses sont indisponibles pour le moment.',
    retry: 'Réessayer',
    close: 'Fermer',
    copy: 'Copier le code',
    next: 'Prochain',
    reached: 'Atteint',
    empty: "Rien pour l'instant.",
    pending: 'Votre code arrive bientôt.',
    heldUntil: 'À vous le {date}, une fois le délai de retour écoulé.',
    revoked: 'Annulée : l’achat qui l’a valu a été retourné ou annulé.',
    completed: 'Terminé',
    inARow: "{n} d'affilée",
    tasks: '{d} tâches sur {n} terminées',
    daily: "Aujourd'hui",
    weekly: 'Cette semaine',
    monthly: 'Ce mois-ci',
    leaderboard: 'Classement',
    streaks: 'Séries',
    challenges: 'Défis',
    missions: 'Missions',
    rewards: 'Récompenses',
    you: 'Vous',
    ranked: '{n} classés',
    notRanked: "Vous n'êtes pas encore classé.",
    freezes: 'Gels : {n}',
    frozen: 'Gelé',
    off: '{v} de réduction',
    signInForRewards: 'Connectez-vous pour voir les récompenses obtenues.',
    points: 'Points',
    waysToEarn: 'Comment gagner',
    perSpend: 'Pour chaque {amount} dépensé',
    perOrder: 'Chaque commande',
    onSignUp: 'Création de compte',
    toRedeem: 'Récompenses à échanger',
    redeem: 'Échanger',
    toGo: 'Encore {n}',
    notEnough: 'Pas assez de {name} pour cette récompense.',
    redeemed: 'Échangé !',
    toNextTier: 'Encore {n} pour {tier}',
    signInToRedeem: 'Connectez-vous pour échanger.',
    credited: 'Ajouté à votre solde.',
    expired: 'Expiré le {date}.',
  },
  es: {
    loading: 'Cargando…',
    error: 'Las recompensas no están disponibles ahora.',
    retry: 'Reintentar',
    close: 'Cerrar',
    copy: 'Copiar código',
    next: 'Siguiente',
    reached: 'Conseguido',
    empty: 'Aún no hay nada.',
    pending: 'Tu código está en camino.',
    heldUntil: 'Tuyo el {date}, cuando termine el plazo de devolución.',
    revoked: 'Retirada: la compra que la otorgó se devolvió o se canceló.',
    completed: 'Completado',
    inARow: '{n} seguidos',
    tasks: '{d} de {n} tareas hechas',
    daily: 'Hoy',
    weekly: 'Esta semana',
    monthly: 'Este mes',
    leaderboard: 'Clasificación',
    streaks: 'Rachas',
    challenges: 'Retos',
    missions: 'Misiones',
    rewards: 'Recompensas',
    you: 'Tú',
    ranked: '{n} clasificados',
    notRanked: 'Aún no estás en la clasificación.',
    freezes: 'Congelaciones: {n}',
    frozen: 'Congelado',
    off: '{v} de descuento',
    signInForRewards: 'Inicia sesión para ver las recompensas que has conseguido.',
    points: 'Puntos',
    waysToEarn: 'Cómo ganar',
    perSpend: 'Por cada {amount} gastado',
    perOrder: 'Cada pedido',
    onSignUp: 'Crear una cuenta',
    toRedeem: 'Recompensas para canjear',
    redeem: 'Canjear',
    toGo: 'Faltan {n}',
    notEnough: 'No tienes suficientes {name} para esta recompensa.',
    redeemed: '¡Canjeado!',
    toNextTier: 'Faltan {n} para {tier}',
    signInToRedeem: 'Inicia sesión para canjear.',
    credited: 'Añadido a tu saldo.',
    expired: 'Caducó el {date}.',
  },
  de: {
    loading: 'Wird geladen…',
    error: 'Prämien sind gerade nicht verfügbar.',
    retry: 'Erneut versuchen',
    close: 'Schließen',
    copy: 'Code kopieren',
    next: 'Nächstes',
    reached: 'Erreicht',
    empty: 'Noch nichts hier.',
    pending: 'Dein Code ist unterwegs.',
    heldUntil: 'Ab {date} deiner, sobald die Rückgabefrist abgelaufen ist.',
    revoked: 'Zurückgenommen: Der Kauf, für den du sie erhalten hast, wurde zurückgegeben oder storniert.',
    completed: 'Abgeschlossen',
    inARow: '{n} in Folge',
    tasks: '{d} von {n} Aufgaben erledigt',
    daily: 'Heute',
    weekly: 'Diese Woche',
    monthly: 'Diesen Monat',
    leaderboard: 'Bestenliste',
    streaks: 'Serien',
    challenges: 'Challenges',
    missions: 'Missionen',
    rewards: 'Prämien',
    you: 'Du',
    ranked: '{n} in der Wertung',
    notRanked: 'Du bist noch nicht in der Wertung.',
    freezes: 'Serienschutz: {n}',
    frozen: 'Eingefroren',
    off: '{v} Rabatt',
    signInForRewards: 'Melde dich an, um deine Prämien zu sehen.',
    points: 'Punkte',
    waysToEarn: 'So sammelst du',
    perSpend: 'Pro {amount} Einkaufswert',
    perOrder: 'Jede Bestellung',
    onSignUp: 'Kontoerstellung',
    toRedeem: 'Prämien zum Einlösen',
    redeem: 'Einlösen',
    toGo: 'Noch {n}',
    notEnough: 'Nicht genug {name} für diese Prämie.',
    redeemed: 'Eingelöst!',
    toNextTier: 'Noch {n} bis {tier}',
    signInToRedeem: 'Melde dich zum Einlösen an.',
    credited: 'Deinem Guthaben gutgeschrieben.',
    expired: 'Abgelaufen am {date}.',
  },
  it: {
    loading: 'Caricamento…',
    error: 'I premi non sono disponibili al momento.',
    retry: 'Riprova',
    close: 'Chiudi',
    copy: 'Copia codice',
    next: 'Prossimo',
    reached: 'Raggiunto',
    empty: 'Ancora niente qui.',
    pending: 'Il tuo codice è in arrivo.',
    heldUntil: 'Tuo dal {date}, trascorso il periodo di reso.',
    revoked: 'Revocato: l’acquisto che l’ha fatto ottenere è stato reso o annullato.',
    completed: 'Completato',
    inARow: '{n} di fila',
    tasks: '{d} di {n} attività completate',
    daily: 'Oggi',
    weekly: 'Questa settimana',
    monthly: 'Questo mese',
    leaderboard: 'Classifica',
    streaks: 'Serie',
    challenges: 'Sfide',
    missions: 'Missioni',
    rewards: 'Premi',
    you: 'Tu',
    ranked: '{n} in classifica',
    notRanked: 'Non sei ancora in classifica.',
    freezes: 'Congelamenti: {n}',
    frozen: 'Congelato',
    off: '{v} di sconto',
    signInForRewards: 'Accedi per vedere i premi che hai ottenuto.',
    points: 'Punti',
    waysToEarn: 'Come guadagnare',
    perSpend: 'Per ogni {amount} speso',
    perOrder: 'Ogni ordine',
    onSignUp: 'Creazione dell’account',
    toRedeem: 'Premi da riscattare',
    redeem: 'Riscatta',
    toGo: 'Mancano {n}',
    notEnough: 'Non hai abbastanza {name} per questo premio.',
    redeemed: 'Riscattato!',
    toNextTier: 'Mancano {n} per {tier}',
    signInToRedeem: 'Accedi per riscattare.',
    credited: 'Aggiunto al tuo saldo.',
    expired: 'Scaduto il {date}.',
  },
  pt: {
    loading: 'A carregar…',
    error: 'As recompensas não estão disponíveis agora.',
    retry: 'Tentar novamente',
    close: 'Fechar',
    copy: 'Copiar código',
    next: 'Próximo',
    reached: 'Alcançado',
    empty: 'Ainda não há nada.',
    pending: 'O seu código está a caminho.',
    heldUntil: 'Seu em {date}, depois do prazo de devolução.',
    revoked: 'Cancelada: a compra que a gerou foi devolvida ou cancelada.',
    completed: 'Concluído',
    inARow: '{n} seguidos',
    tasks: '{d} de {n} tarefas concluídas',
    daily: 'Hoje',
    weekly: 'Esta semana',
    monthly: 'Este mês',
    leaderboard: 'Classificação',
    streaks: 'Séries',
    challenges: 'Desafios',
    missions: 'Missões',
    rewards: 'Recompensas',
    you: 'Você',
    ranked: '{n} classificados',
    notRanked: 'Ainda não está classificado.',
    freezes: 'Congelamentos: {n}',
    frozen: 'Congelado',
    off: '{v} de desconto',
    signInForRewards: 'Inicie sessão para ver as recompensas que ganhou.',
    points: 'Pontos',
    waysToEarn: 'Como ganhar',
    perSpend: 'Por cada {amount} gasto',
    perOrder: 'Cada encomenda',
    onSignUp: 'Criar uma conta',
    toRedeem: 'Recompensas para trocar',
    redeem: 'Trocar',
    toGo: 'Faltam {n}',
    notEnough: 'Não tem {name} suficientes para esta recompensa.',
    redeemed: 'Trocado!',
    toNextTier: 'Faltam {n} para {tier}',
    signInToRedeem: 'Inicie sessão para trocar.',
    credited: 'Adicionado ao seu saldo.',
    expired: 'Expirou em {date}.',
  },
  ja: {
    loading: '読み込み中…',
    error: '現在リワードを表示できません。',
    retry: '再試行',
    close: '閉じる',
    copy: 'コードをコピー',
    next: '次',
    reached: '達成',
    empty: 'まだありません。',
    pending: 'コードは準備中です。',
    heldUntil: '返品期間が過ぎた{date}にお届けします。',
    revoked: '取り消されました：対象のご購入が返品またはキャンセルされました。',
    completed: '完了',
    inARow: '{n}回連続',
    tasks: '{n}件中{d}件完了',
    daily: '今日',
    weekly: '今週',
    monthly: '今月',
    leaderboard: 'ランキング',
    streaks: '連続記録',
    challenges: 'チャレンジ',
    missions: 'ミッション',
    rewards: '特典',
    you: 'あなた',
    ranked: '{n}人がランクイン',
    notRanked: 'まだランクインしていません。',
    freezes: 'フリーズ: {n}',
    frozen: 'フリーズ済み',
    off: '{v}オフ',
    signInForRewards: 'ログインすると獲得したリワードが表示されます。',
    points: 'ポイント',
    waysToEarn: '貯め方',
    perSpend: 'ご利用額{amount}につき',
    perOrder: 'ご注文ごと',
    onSignUp: 'アカウント作成',
    toRedeem: '交換できるリワード',
    redeem: '交換する',
    toGo: 'あと{n}',
    notEnough: 'このリワードに必要な{name}が足りません。',
    redeemed: '交換しました',
    toNextTier: '{tier}まであと{n}',
    signInToRedeem: 'ログインすると交換できます。',
    credited: '残高に加算されました。',
    expired: '{date}に有効期限が切れました。',
  },
  ko: {
    loading: '불러오는 중…',
    error: '지금은 리워드를 볼 수 없습니다.',
    retry: '다시 시도',
    close: '닫기',
    copy: '코드 복사',
    next: '다음',
    reached: '달성',
    empty: '아직 없습니다.',
    pending: '코드를 준비하고 있습니다.',
    heldUntil: '반품 기간이 지난 {date}에 지급됩니다.',
    revoked: '취소됨: 적립된 구매가 반품 또는 취소되었습니다.',
    completed: '완료',
    inARow: '{n}회 연속',
    tasks: '{n}개 중 {d}개 완료',
    daily: '오늘',
    weekly: '이번 주',
    monthly: '이번 달',
    leaderboard: '순위표',
    streaks: '연속 기록',
    challenges: '챌린지',
    missions: '미션',
    rewards: '리워드',
    you: '나',
    ranked: '{n}명 순위',
    notRanked: '아직 순위에 없습니다.',
    freezes: '프리즈: {n}',
    frozen: '프리즈됨',
    off: '{v} 할인',
    signInForRewards: '로그인하면 받은 리워드를 볼 수 있습니다.',
    points: '포인트',
    waysToEarn: '적립 방법',
    perSpend: '결제 금액 {amount}당',
    perOrder: '주문마다',
    onSignUp: '계정 만들기',
    toRedeem: '교환 가능한 리워드',
    redeem: '교환하기',
    toGo: '{n} 남음',
    notEnough: '이 리워드에 필요한 {name}이(가) 부족합니다.',
    redeemed: '교환 완료',
    toNextTier: '{tier}까지 {n} 남음',
    signInToRedeem: '로그인하면 교환할 수 있습니다.',
    credited: '잔액에 적립되었습니다.',
    expired: '{date}에 만료되었습니다.',
  },
  'zh-CN': {
    loading: '加载中…',
    error: '奖励暂时无法显示。',
    retry: '重试',
    close: '关闭',
    copy: '复制代码',
    next: '下一个',
    reached: '已达成',
    empty: '暂无内容。',
    pending: '您的代码即将发放。',
    heldUntil: '退货期结束后，将于 {date} 发放给您。',
    revoked: '已收回：获得该奖励的订单已退货或取消。',
    completed: '已完成',
    inARow: '连续 {n} 次',
    tasks: '已完成 {d}/{n} 项任务',
    daily: '今天',
    weekly: '本周',
    monthly: '本月',
    leaderboard: '排行榜',
    streaks: '连续记录',
    challenges: '挑战',
    missions: '任务',
    rewards: '奖励',
    you: '您',
    ranked: '共 {n} 人上榜',
    notRanked: '您尚未上榜。',
    freezes: '冻结卡：{n}',
    frozen: '已冻结',
    off: '{v} 折扣',
    signInForRewards: '登录后即可查看您获得的奖励。',
    points: '积分',
    waysToEarn: '赚取方式',
    perSpend: '每消费 {amount}',
    perOrder: '每笔订单',
    onSignUp: '创建账户',
    toRedeem: '可兑换的奖励',
    redeem: '兑换',
    toGo: '还差 {n}',
    notEnough: '您的{name}不足，无法兑换此奖励。',
    redeemed: '兑换成功',
    toNextTier: '距离{tier}还差 {n}',
    signInToRedeem: '登录后即可兑换。',
    credited: '已计入您的余额。',
    expired: '已于{date}过期。',
  },
};

export const stringsFor = (languageCode: string | undefined): Strings => LANGUAGES[languageCode ?? 'en'] ?? en;

/**
 * A Shopify page's language (`localization.language.isoCode`) as the interface speaks it: the
 * exact tag, else its base language (any Chinese reads zh-CN), else English. The UI extensions'
 * own words come in the same nine languages.
 */
export function pageLanguage(isoCode: string): string {
  if (LANGUAGES[isoCode]) return isoCode;
  const base = isoCode.split('-')[0] ?? '';
  return LANGUAGES[base] ? base : isoCode.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** Intl formats in the widget's language, or English where the browser does not know it. */
export function numberFormat(lang: string | undefined, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(lang, options);
  } catch {
    return new Intl.NumberFormat('en', options);
  }
}

/**
 * An amount of the shop's currency as the shopper's language writes it (`€5`, `5 €`, `€7.50`), without
 * cents when it is whole; null without a currency or for a code Intl does not know.
 */
export function moneyText(amount: number, currency: string | undefined, lang: string | undefined): string | null {
  if (!currency) return null;
  const whole = Number.isInteger(amount) ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
  try {
    return numberFormat(lang, { style: 'currency', currency, ...whole }).format(amount);
  } catch {
    return null;
  }
}

export function dateFormat(lang: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(lang, options);
  } catch {
    return new Intl.DateTimeFormat('en', options);
  }
}

/** Fills `{name}` placeholders. */
export const fill = (text: string, values: Record<string, string | number>): string =>
  text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
