import { CORE_LANGUAGES, type CoreLanguage, coreLanguage } from '../../core/languages';

/**
 * The shopper-facing texts (eud* fields, and the record names that repeat them) of the onboarding's
 * program templates, one set per widget language (CONTRACT §13: en es fr de zh-CN ja pt it ko).
 * These are storefront data the templates write into the core, not admin texts: the merchant edits
 * them afterwards like any record's. Titles are at most 48 characters (the core's eudTitle limit).
 */
export const WIDGET_LANGUAGES = CORE_LANGUAGES;
export type WidgetLanguage = CoreLanguage;

/** The widget template's texts (CONTRACT §6 `template`), written in the shop's language when the app makes the template. */
export interface WidgetTemplateTexts {
  loggedInTitle: string;
  loggedInSubTitle: string;
  loggedOutTitle: string;
  loggedOutSubTitle: string;
  signUpButtonText: string;
  logInButtonText: string;
  copiedMessage: string;
  streaksTabTitle: string;
  challengesTabTitle: string;
  missionsTabTitle: string;
  rewardsTabTitle: string;
}

export interface StorefrontTexts {
  launcher: string;
  /** The names (and the launcher's description) of the widget's records, as the admin lists them. */
  widgetRecords: { launcher: string; launcherDescription: string; theme: string; template: string };
  template: WidgetTemplateTexts;
  redeem: string;
  daily: { title: string; description: string; completed: string; day3: string; day7: string; reward3: string; reward7: string };
  weekly: { title: string; description: string; week4: string; week12: string; reward4: string; reward12: string };
  /** The monthly spend challenge: `{target}` and `{half}` are its amounts in the shop's currency. */
  spend: {
    title: string;
    description: string;
    completed: string;
    half: string;
    full: string;
    /** A fixed `{amount}` off, in the shop's currency. */
    reward: string;
    leaderboard: string;
    leaderboardDescription: string;
  };
  welcome: { title: string; description: string; completed: string; account: string; order: string; reward: string };
  /** Points and tiers: `currency` is what shoppers call points; `rewardFixed` has the `{amount}` in the shop's currency. */
  points: {
    title: string;
    currency: string;
    /** One of them ("1 point"). */
    currencyOne: string;
    rewardFixed: string;
    rewardPercent: string;
    silver: string;
    silverDescription: string;
    gold: string;
    goldDescription: string;
  };
}

const en: StorefrontTexts = {
  launcher: 'Rewards',
  widgetRecords: {
    launcher: 'Loyalty launcher',
    launcherDescription: 'The button that opens the loyalty widget.',
    theme: 'Loyalty theme',
    template: 'Loyalty texts',
  },
  template: {
    loggedInTitle: 'Your rewards',
    loggedInSubTitle: 'Keep going to unlock your next reward.',
    loggedOutTitle: 'Join our rewards program',
    loggedOutSubTitle: 'Sign up or log in to earn rewards for what you already do.',
    signUpButtonText: 'Sign up',
    logInButtonText: 'Log in',
    copiedMessage: 'Copied!',
    streaksTabTitle: 'Streaks',
    challengesTabTitle: 'Challenges',
    missionsTabTitle: 'Missions',
    rewardsTabTitle: 'Rewards',
  },
  redeem: 'Enter this code at checkout.',
  daily: {
    title: 'Daily visit streak',
    description: 'Visit us every day: 3 and 7 days in a row unlock rewards.',
    completed: 'Seven days in a row. Well done!',
    day3: '3 days in a row',
    day7: '7 days in a row',
    reward3: '10% off your next order',
    reward7: '20% off your next order',
  },
  weekly: {
    title: 'Weekly streak',
    description: 'Order at least once a week. Every 4 weeks earns a freeze that covers a missed week.',
    week4: '4 weeks in a row',
    week12: '12 weeks in a row',
    reward4: '10% off your next order',
    reward12: '25% off your next order',
  },
  spend: {
    title: 'Monthly spend challenge',
    description: 'Reach {target} in orders this month and unlock rewards on the way.',
    completed: 'Challenge complete. Thank you!',
    half: 'Halfway: {half} spent',
    full: '{target} spent this month',
    reward: '{amount} off your next order',
    leaderboard: 'Top spenders this month',
    leaderboardDescription: 'The shoppers who spent the most this month.',
  },
  welcome: {
    title: 'Welcome mission',
    description: 'Create an account and place your first order.',
    completed: 'Welcome aboard! Your reward is ready.',
    account: 'Create an account',
    order: 'Place your first order',
    reward: '15% welcome reward',
  },
  points: {
    title: 'Points and tiers',
    currency: 'points',
    currencyOne: 'point',
    rewardFixed: '{amount} off your next order',
    rewardPercent: '10% off your next order',
    silver: 'Silver',
    silverDescription: 'Earn 20% more points on every purchase.',
    gold: 'Gold',
    goldDescription: 'Earn 50% more points on every purchase.',
  },
};

const es: StorefrontTexts = {
  launcher: 'Recompensas',
  widgetRecords: {
    launcher: 'Botón de fidelidad',
    launcherDescription: 'El botón que abre el widget de fidelidad.',
    theme: 'Tema de fidelidad',
    template: 'Textos de fidelidad',
  },
  template: {
    loggedInTitle: 'Tus recompensas',
    loggedInSubTitle: 'Sigue así para desbloquear tu próxima recompensa.',
    loggedOutTitle: 'Únete a nuestro programa de recompensas',
    loggedOutSubTitle: 'Regístrate o inicia sesión para ganar recompensas por lo que ya haces.',
    signUpButtonText: 'Regístrate',
    logInButtonText: 'Inicia sesión',
    copiedMessage: '¡Copiado!',
    streaksTabTitle: 'Rachas',
    challengesTabTitle: 'Retos',
    missionsTabTitle: 'Misiones',
    rewardsTabTitle: 'Recompensas',
  },
  redeem: 'Introduce este código al pagar.',
  daily: {
    title: 'Racha de visitas diarias',
    description: 'Visítanos cada día: 3 y 7 días seguidos desbloquean recompensas.',
    completed: 'Siete días seguidos. ¡Bien hecho!',
    day3: '3 días seguidos',
    day7: '7 días seguidos',
    reward3: '10 % de descuento en tu próximo pedido',
    reward7: '20 % de descuento en tu próximo pedido',
  },
  weekly: {
    title: 'Racha semanal',
    description: 'Haz al menos un pedido por semana. Cada 4 semanas ganas una protección que cubre una semana perdida.',
    week4: '4 semanas seguidas',
    week12: '12 semanas seguidas',
    reward4: '10 % de descuento en tu próximo pedido',
    reward12: '25 % de descuento en tu próximo pedido',
  },
  spend: {
    title: 'Reto de gasto mensual',
    description: 'Alcanza {target} en pedidos este mes y desbloquea recompensas por el camino.',
    completed: 'Reto completado. ¡Gracias!',
    half: 'A mitad de camino: {half} gastados',
    full: '{target} gastados este mes',
    reward: '{amount} de descuento en tu próximo pedido',
    leaderboard: 'Quienes más gastan este mes',
    leaderboardDescription: 'Los clientes que más han gastado este mes.',
  },
  welcome: {
    title: 'Misión de bienvenida',
    description: 'Crea una cuenta y haz tu primer pedido.',
    completed: '¡Bienvenido! Tu recompensa está lista.',
    account: 'Crea una cuenta',
    order: 'Haz tu primer pedido',
    reward: '15 % de bienvenida',
  },
  points: {
    title: 'Puntos y niveles',
    currency: 'puntos',
    currencyOne: 'punto',
    rewardFixed: '{amount} de descuento en tu próximo pedido',
    rewardPercent: '10 % de descuento en tu próximo pedido',
    silver: 'Plata',
    silverDescription: 'Gana un 20 % más de puntos en cada compra.',
    gold: 'Oro',
    goldDescription: 'Gana un 50 % más de puntos en cada compra.',
  },
};

const fr: StorefrontTexts = {
  launcher: 'Récompenses',
  widgetRecords: {
    launcher: 'Bouton de fidélité',
    launcherDescription: 'Le bouton qui ouvre le widget de fidélité.',
    theme: 'Thème de fidélité',
    template: 'Textes de fidélité',
  },
  template: {
    loggedInTitle: 'Vos récompenses',
    loggedInSubTitle: 'Continuez pour débloquer votre prochaine récompense.',
    loggedOutTitle: 'Rejoignez notre programme de fidélité',
    loggedOutSubTitle: 'Inscrivez-vous ou connectez-vous pour être récompensé de ce que vous faites déjà.',
    signUpButtonText: 'S’inscrire',
    logInButtonText: 'Se connecter',
    copiedMessage: 'Copié !',
    streaksTabTitle: 'Séries',
    challengesTabTitle: 'Défis',
    missionsTabTitle: 'Missions',
    rewardsTabTitle: 'Récompenses',
  },
  redeem: 'Saisissez ce code lors du paiement.',
  daily: {
    title: 'Série de visites quotidiennes',
    description: 'Rendez-nous visite chaque jour : 3 et 7 jours d’affilée débloquent des récompenses.',
    completed: 'Sept jours d’affilée. Bravo !',
    day3: '3 jours d’affilée',
    day7: '7 jours d’affilée',
    reward3: '10 % sur votre prochaine commande',
    reward7: '20 % sur votre prochaine commande',
  },
  weekly: {
    title: 'Série hebdomadaire',
    description: 'Commandez au moins une fois par semaine. Toutes les 4 semaines, gagnez un joker qui couvre une semaine manquée.',
    week4: '4 semaines d’affilée',
    week12: '12 semaines d’affilée',
    reward4: '10 % sur votre prochaine commande',
    reward12: '25 % sur votre prochaine commande',
  },
  spend: {
    title: 'Défi d’achats du mois',
    description: 'Atteignez {target} de commandes ce mois-ci et débloquez des récompenses en chemin.',
    completed: 'Défi réussi. Merci !',
    half: 'À mi-chemin : {half} dépensés',
    full: '{target} dépensés ce mois-ci',
    reward: '{amount} de remise sur votre prochaine commande',
    leaderboard: 'Meilleurs clients du mois',
    leaderboardDescription: 'Les clients qui ont le plus dépensé ce mois-ci.',
  },
  welcome: {
    title: 'Mission de bienvenue',
    description: 'Créez un compte et passez votre première commande.',
    completed: 'Bienvenue ! Votre récompense est prête.',
    account: 'Créer un compte',
    order: 'Passer votre première commande',
    reward: '15 % de bienvenue',
  },
  points: {
    title: 'Points et niveaux',
    currency: 'points',
    currencyOne: 'point',
    rewardFixed: '{amount} de remise sur votre prochaine commande',
    rewardPercent: '10 % sur votre prochaine commande',
    silver: 'Argent',
    silverDescription: 'Gagnez 20 % de points en plus à chaque achat.',
    gold: 'Or',
    goldDescription: 'Gagnez 50 % de points en plus à chaque achat.',
  },
};

const de: StorefrontTexts = {
  launcher: 'Prämien',
  widgetRecords: {
    launcher: 'Loyalty-Button',
    launcherDescription: 'Der Button, der das Loyalty-Widget öffnet.',
    theme: 'Loyalty-Design',
    template: 'Loyalty-Texte',
  },
  template: {
    loggedInTitle: 'Deine Prämien',
    loggedInSubTitle: 'Bleib dran und schalte deine nächste Prämie frei.',
    loggedOutTitle: 'Mach mit bei unserem Prämienprogramm',
    loggedOutSubTitle: 'Registriere dich oder melde dich an und sammle Prämien für das, was du ohnehin tust.',
    signUpButtonText: 'Registrieren',
    logInButtonText: 'Anmelden',
    copiedMessage: 'Kopiert!',
    streaksTabTitle: 'Serien',
    challengesTabTitle: 'Challenges',
    missionsTabTitle: 'Missionen',
    rewardsTabTitle: 'Prämien',
  },
  redeem: 'Gib diesen Code an der Kasse ein.',
  daily: {
    title: 'Tägliche Besuchsserie',
    description: 'Besuche uns jeden Tag: 3 und 7 Tage in Folge schalten Prämien frei.',
    completed: 'Sieben Tage in Folge. Gut gemacht!',
    day3: '3 Tage in Folge',
    day7: '7 Tage in Folge',
    reward3: '10 % Rabatt auf deine nächste Bestellung',
    reward7: '20 % Rabatt auf deine nächste Bestellung',
  },
  weekly: {
    title: 'Wöchentliche Serie',
    description: 'Bestelle mindestens einmal pro Woche. Alle 4 Wochen gibt es einen Joker, der eine verpasste Woche abdeckt.',
    week4: '4 Wochen in Folge',
    week12: '12 Wochen in Folge',
    reward4: '10 % Rabatt auf deine nächste Bestellung',
    reward12: '25 % Rabatt auf deine nächste Bestellung',
  },
  spend: {
    title: 'Monatliche Einkaufs-Challenge',
    description: 'Erreiche diesen Monat {target} an Bestellungen und sichere dir unterwegs Prämien.',
    completed: 'Challenge geschafft. Danke!',
    half: 'Halbzeit: {half} ausgegeben',
    full: '{target} in diesem Monat ausgegeben',
    reward: '{amount} Rabatt auf deine nächste Bestellung',
    leaderboard: 'Top-Kunden des Monats',
    leaderboardDescription: 'Die Kundinnen und Kunden mit den höchsten Einkäufen in diesem Monat.',
  },
  welcome: {
    title: 'Willkommensmission',
    description: 'Lege ein Konto an und gib deine erste Bestellung auf.',
    completed: 'Willkommen! Deine Prämie ist bereit.',
    account: 'Konto anlegen',
    order: 'Erste Bestellung aufgeben',
    reward: '15 % Willkommensprämie',
  },
  points: {
    title: 'Punkte und Stufen',
    currency: 'Punkte',
    currencyOne: 'Punkt',
    rewardFixed: '{amount} Rabatt auf deine nächste Bestellung',
    rewardPercent: '10 % Rabatt auf deine nächste Bestellung',
    silver: 'Silber',
    silverDescription: 'Sammle bei jedem Einkauf 20 % mehr Punkte.',
    gold: 'Gold',
    goldDescription: 'Sammle bei jedem Einkauf 50 % mehr Punkte.',
  },
};

const zhCN: StorefrontTexts = {
  launcher: '奖励',
  widgetRecords: {
    launcher: '会员奖励按钮',
    launcherDescription: '打开会员奖励小组件的按钮。',
    theme: '会员奖励主题',
    template: '会员奖励文案',
  },
  template: {
    loggedInTitle: '您的奖励',
    loggedInSubTitle: '继续加油，解锁下一个奖励。',
    loggedOutTitle: '加入我们的奖励计划',
    loggedOutSubTitle: '注册或登录，日常购物即可赢取奖励。',
    signUpButtonText: '注册',
    logInButtonText: '登录',
    copiedMessage: '已复制！',
    streaksTabTitle: '连续记录',
    challengesTabTitle: '挑战',
    missionsTabTitle: '任务',
    rewardsTabTitle: '奖励',
  },
  redeem: '结账时输入此代码。',
  daily: {
    title: '每日访问连续记录',
    description: '每天来访：连续 3 天和 7 天即可解锁奖励。',
    completed: '连续七天，太棒了！',
    day3: '连续 3 天',
    day7: '连续 7 天',
    reward3: '下单立享九折',
    reward7: '下单立享八折',
  },
  weekly: {
    title: '每周连续记录',
    description: '每周至少下单一次。每满 4 周可获得一次冻结，抵消错过的一周。',
    week4: '连续 4 周',
    week12: '连续 12 周',
    reward4: '下单立享九折',
    reward12: '下单立享七五折',
  },
  spend: {
    title: '每月消费挑战',
    description: '本月订单金额达到 {target}，沿途解锁奖励。',
    completed: '挑战完成，感谢支持！',
    half: '完成一半：已消费 {half}',
    full: '本月已消费 {target}',
    reward: '下次订单立减 {amount}',
    leaderboard: '本月消费排行榜',
    leaderboardDescription: '本月消费最多的顾客。',
  },
  welcome: {
    title: '欢迎任务',
    description: '创建账户并完成首笔订单。',
    completed: '欢迎加入！您的奖励已准备好。',
    account: '创建账户',
    order: '完成首笔订单',
    reward: '欢迎礼：八五折',
  },
  points: {
    title: '积分与会员等级',
    currency: '积分',
    currencyOne: '积分',
    rewardFixed: '下次订单立减 {amount}',
    rewardPercent: '下单立享九折',
    silver: '白银',
    silverDescription: '每次购物多得 20% 积分。',
    gold: '黄金',
    goldDescription: '每次购物多得 50% 积分。',
  },
};

const ja: StorefrontTexts = {
  launcher: '特典',
  widgetRecords: {
    launcher: 'ロイヤルティボタン',
    launcherDescription: 'ロイヤルティウィジェットを開くボタン。',
    theme: 'ロイヤルティテーマ',
    template: 'ロイヤルティテキスト',
  },
  template: {
    loggedInTitle: 'あなたの特典',
    loggedInSubTitle: 'この調子で次の特典を獲得しましょう。',
    loggedOutTitle: '特典プログラムに参加',
    loggedOutSubTitle: '新規登録またはログインして、いつものお買い物で特典を獲得しましょう。',
    signUpButtonText: '新規登録',
    logInButtonText: 'ログイン',
    copiedMessage: 'コピーしました！',
    streaksTabTitle: '連続記録',
    challengesTabTitle: 'チャレンジ',
    missionsTabTitle: 'ミッション',
    rewardsTabTitle: '特典',
  },
  redeem: 'お会計時にこのコードを入力してください。',
  daily: {
    title: '毎日の来店ストリーク',
    description: '毎日ご来店ください。3日連続と7日連続で特典がもらえます。',
    completed: '7日連続達成、おめでとうございます！',
    day3: '3日連続',
    day7: '7日連続',
    reward3: '次回のご注文が10%オフ',
    reward7: '次回のご注文が20%オフ',
  },
  weekly: {
    title: '毎週のストリーク',
    description: '週に1回以上ご注文ください。4週ごとに、休んだ週をカバーするフリーズがもらえます。',
    week4: '4週連続',
    week12: '12週連続',
    reward4: '次回のご注文が10%オフ',
    reward12: '次回のご注文が25%オフ',
  },
  spend: {
    title: '月間お買い物チャレンジ',
    description: '今月のご注文合計{target}を目指し、途中で特典を獲得しましょう。',
    completed: 'チャレンジ達成、ありがとうございます！',
    half: '半分達成：{half}ご利用',
    full: '今月{target}ご利用',
    reward: '次回のご注文から{amount}引き',
    leaderboard: '今月のお買い物ランキング',
    leaderboardDescription: '今月最もお買い物されたお客様。',
  },
  welcome: {
    title: 'ウェルカムミッション',
    description: 'アカウントを作成して、初めてのご注文をお願いします。',
    completed: 'ようこそ！特典の準備ができました。',
    account: 'アカウントを作成',
    order: '初めてのご注文',
    reward: 'ウェルカム特典15%オフ',
  },
  points: {
    title: 'ポイントと会員ランク',
    currency: 'ポイント',
    currencyOne: 'ポイント',
    rewardFixed: '次回のご注文から{amount}引き',
    rewardPercent: '次回のご注文が10%オフ',
    silver: 'シルバー',
    silverDescription: 'お買い物ごとにポイントが20%多く貯まります。',
    gold: 'ゴールド',
    goldDescription: 'お買い物ごとにポイントが50%多く貯まります。',
  },
};

const pt: StorefrontTexts = {
  launcher: 'Recompensas',
  widgetRecords: {
    launcher: 'Botão de fidelidade',
    launcherDescription: 'O botão que abre o widget de fidelidade.',
    theme: 'Tema de fidelidade',
    template: 'Textos de fidelidade',
  },
  template: {
    loggedInTitle: 'Suas recompensas',
    loggedInSubTitle: 'Continue assim para desbloquear a próxima recompensa.',
    loggedOutTitle: 'Participe do nosso programa de recompensas',
    loggedOutSubTitle: 'Cadastre-se ou entre para ganhar recompensas pelo que você já faz.',
    signUpButtonText: 'Cadastre-se',
    logInButtonText: 'Entrar',
    copiedMessage: 'Copiado!',
    streaksTabTitle: 'Sequências',
    challengesTabTitle: 'Desafios',
    missionsTabTitle: 'Missões',
    rewardsTabTitle: 'Recompensas',
  },
  redeem: 'Insira este código ao finalizar a compra.',
  daily: {
    title: 'Sequência de visitas diárias',
    description: 'Venha nos visitar todos os dias: 3 e 7 dias seguidos desbloqueiam recompensas.',
    completed: 'Sete dias seguidos. Muito bem!',
    day3: '3 dias seguidos',
    day7: '7 dias seguidos',
    reward3: '10% de desconto no próximo pedido',
    reward7: '20% de desconto no próximo pedido',
  },
  weekly: {
    title: 'Sequência semanal',
    description: 'Faça pelo menos um pedido por semana. A cada 4 semanas, você ganha um congelamento que cobre uma semana perdida.',
    week4: '4 semanas seguidas',
    week12: '12 semanas seguidas',
    reward4: '10% de desconto no próximo pedido',
    reward12: '25% de desconto no próximo pedido',
  },
  spend: {
    title: 'Desafio de compras do mês',
    description: 'Alcance {target} em pedidos este mês e desbloqueie recompensas pelo caminho.',
    completed: 'Desafio concluído. Obrigado!',
    half: 'Na metade do caminho: {half} gastos',
    full: '{target} gastos este mês',
    reward: '{amount} de desconto no próximo pedido',
    leaderboard: 'Quem mais comprou este mês',
    leaderboardDescription: 'Os clientes que mais gastaram este mês.',
  },
  welcome: {
    title: 'Missão de boas-vindas',
    description: 'Crie uma conta e faça seu primeiro pedido.',
    completed: 'Boas-vindas! Sua recompensa está pronta.',
    account: 'Criar uma conta',
    order: 'Fazer o primeiro pedido',
    reward: '15% de boas-vindas',
  },
  points: {
    title: 'Pontos e níveis',
    currency: 'pontos',
    currencyOne: 'ponto',
    rewardFixed: '{amount} de desconto no próximo pedido',
    rewardPercent: '10% de desconto no próximo pedido',
    silver: 'Prata',
    silverDescription: 'Ganhe 20% mais pontos em cada compra.',
    gold: 'Ouro',
    goldDescription: 'Ganhe 50% mais pontos em cada compra.',
  },
};

const it: StorefrontTexts = {
  launcher: 'Premi',
  widgetRecords: {
    launcher: 'Pulsante fedeltà',
    launcherDescription: 'Il pulsante che apre il widget fedeltà.',
    theme: 'Tema fedeltà',
    template: 'Testi fedeltà',
  },
  template: {
    loggedInTitle: 'I tuoi premi',
    loggedInSubTitle: 'Continua così per sbloccare il prossimo premio.',
    loggedOutTitle: 'Unisciti al nostro programma fedeltà',
    loggedOutSubTitle: 'Registrati o accedi per ottenere premi per ciò che fai già.',
    signUpButtonText: 'Registrati',
    logInButtonText: 'Accedi',
    copiedMessage: 'Copiato!',
    streaksTabTitle: 'Serie',
    challengesTabTitle: 'Sfide',
    missionsTabTitle: 'Missioni',
    rewardsTabTitle: 'Premi',
  },
  redeem: 'Inserisci questo codice al checkout.',
  daily: {
    title: 'Serie di visite giornaliere',
    description: 'Vieni a trovarci ogni giorno: 3 e 7 giorni di fila sbloccano premi.',
    completed: 'Sette giorni di fila. Complimenti!',
    day3: '3 giorni di fila',
    day7: '7 giorni di fila',
    reward3: '10% di sconto sul prossimo ordine',
    reward7: '20% di sconto sul prossimo ordine',
  },
  weekly: {
    title: 'Serie settimanale',
    description: 'Ordina almeno una volta a settimana. Ogni 4 settimane ottieni un jolly che copre una settimana persa.',
    week4: '4 settimane di fila',
    week12: '12 settimane di fila',
    reward4: '10% di sconto sul prossimo ordine',
    reward12: '25% di sconto sul prossimo ordine',
  },
  spend: {
    title: 'Sfida di spesa mensile',
    description: 'Raggiungi {target} di ordini questo mese e sblocca premi lungo il percorso.',
    completed: 'Sfida completata. Grazie!',
    half: 'A metà strada: {half} spesi',
    full: '{target} spesi questo mese',
    reward: '{amount} di sconto sul prossimo ordine',
    leaderboard: 'I migliori clienti del mese',
    leaderboardDescription: 'I clienti che hanno speso di più questo mese.',
  },
  welcome: {
    title: 'Missione di benvenuto',
    description: 'Crea un account e fai il tuo primo ordine.',
    completed: 'Benvenuto! Il tuo premio è pronto.',
    account: 'Crea un account',
    order: 'Fai il primo ordine',
    reward: '15% di benvenuto',
  },
  points: {
    title: 'Punti e livelli',
    currency: 'punti',
    currencyOne: 'punto',
    rewardFixed: '{amount} di sconto sul prossimo ordine',
    rewardPercent: '10% di sconto sul prossimo ordine',
    silver: 'Argento',
    silverDescription: 'Guadagna il 20% di punti in più su ogni acquisto.',
    gold: 'Oro',
    goldDescription: 'Guadagna il 50% di punti in più su ogni acquisto.',
  },
};

const ko: StorefrontTexts = {
  launcher: '리워드',
  widgetRecords: {
    launcher: '로열티 버튼',
    launcherDescription: '로열티 위젯을 여는 버튼입니다.',
    theme: '로열티 테마',
    template: '로열티 텍스트',
  },
  template: {
    loggedInTitle: '나의 리워드',
    loggedInSubTitle: '계속해서 다음 리워드를 받으세요.',
    loggedOutTitle: '리워드 프로그램 가입',
    loggedOutSubTitle: '가입하거나 로그인하고 평소처럼 쇼핑하며 리워드를 받으세요.',
    signUpButtonText: '가입하기',
    logInButtonText: '로그인',
    copiedMessage: '복사됨!',
    streaksTabTitle: '연속 기록',
    challengesTabTitle: '챌린지',
    missionsTabTitle: '미션',
    rewardsTabTitle: '리워드',
  },
  redeem: '결제 시 이 코드를 입력하세요.',
  daily: {
    title: '매일 방문 연속 기록',
    description: '매일 방문하세요. 3일, 7일 연속 방문 시 리워드가 열립니다.',
    completed: '7일 연속 달성, 축하합니다!',
    day3: '3일 연속',
    day7: '7일 연속',
    reward3: '다음 주문 10% 할인',
    reward7: '다음 주문 20% 할인',
  },
  weekly: {
    title: '주간 연속 기록',
    description: '매주 한 번 이상 주문하세요. 4주마다 놓친 한 주를 지켜 주는 프리즈를 받습니다.',
    week4: '4주 연속',
    week12: '12주 연속',
    reward4: '다음 주문 10% 할인',
    reward12: '다음 주문 25% 할인',
  },
  spend: {
    title: '월간 구매 챌린지',
    description: '이번 달 주문 금액 {target}을 달성하고 중간중간 리워드를 받으세요.',
    completed: '챌린지 완료, 감사합니다!',
    half: '절반 달성: {half} 구매',
    full: '이번 달 {target} 구매',
    reward: '다음 주문 {amount} 할인',
    leaderboard: '이번 달 구매 순위',
    leaderboardDescription: '이번 달 가장 많이 구매한 고객입니다.',
  },
  welcome: {
    title: '웰컴 미션',
    description: '계정을 만들고 첫 주문을 하세요.',
    completed: '환영합니다! 리워드가 준비되었습니다.',
    account: '계정 만들기',
    order: '첫 주문하기',
    reward: '웰컴 15% 할인',
  },
  points: {
    title: '포인트와 등급',
    currency: '포인트',
    currencyOne: '포인트',
    rewardFixed: '다음 주문 {amount} 할인',
    rewardPercent: '다음 주문 10% 할인',
    silver: '실버',
    silverDescription: '구매할 때마다 포인트를 20% 더 받으세요.',
    gold: '골드',
    goldDescription: '구매할 때마다 포인트를 50% 더 받으세요.',
  },
};

export const STOREFRONT_TEXTS: Record<WidgetLanguage, StorefrontTexts> = { en, es, fr, de, 'zh-CN': zhCN, ja, pt, it, ko };

/** The widget language for a Shopify locale: the core's language for it, else English. */
export const widgetLanguage = (locale: string | null | undefined): WidgetLanguage => coreLanguage(locale) ?? 'en';
