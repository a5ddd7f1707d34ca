import type { LanguageCode } from '../formats.js';

/**
 * What the demo shop's shoppers read, in each language the widget speaks, so that the demo
 * storefront reads as one language whichever its visitor picks. Tier titles are the tiers' names,
 * the same everywhere.
 */
export interface DemoTexts {
  rewards: { tenOff: string; fifteenOff: string; fiveOff: string; welcome: string; starsFive: string; starsTen: string };
  streak: { title: string; description: string; milestones: [three: string, seven: string] };
  challenge: { title: string; description: string; milestones: [hundred: string, twoHundred: string] };
  mission: { title: string; description: string; tasks: Record<'sign_up' | 'review' | 'referral', string>; milestone: string };
  launcher: string;
  template: {
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
  };
  leaderboard: { title: string; description: string };
  currency: string;
  /** One of them, where the language says one apart from others. */
  currencyOne: string;
  /** What each tier gives: Silver, Gold, Platinum. */
  tiers: [silver: string, gold: string, platinum: string];
}

const en: DemoTexts = {
  rewards: {
    tenOff: '10% off your next order',
    fifteenOff: '15% off your next order',
    fiveOff: '€5 off your next order',
    welcome: 'Welcome gift: 20% off',
    starsFive: '€5 off',
    starsTen: '€10 off',
  },
  streak: {
    title: 'Daily visit',
    description: 'Visit every day: 3 days in a row unlock 10% off, a full week 15% off.',
    milestones: ['Three days in a row', 'A full week'],
  },
  challenge: {
    title: 'Weekly shopper',
    description: 'Spend €200 this week. Halfway there earns €5 off.',
    milestones: ['€100 spent', '€200 spent'],
  },
  mission: {
    title: 'Getting started',
    description: 'Finish all three within a week for a welcome gift.',
    tasks: { sign_up: 'Create an account', review: 'Write a product review', referral: 'Refer a friend' },
    milestone: 'Two tasks done',
  },
  launcher: 'Rewards',
  template: {
    loggedInTitle: 'Your Demo Shop rewards',
    loggedInSubTitle: 'Keep your streak going to unlock coupons.',
    loggedOutTitle: 'Join Demo Shop Rewards',
    loggedOutSubTitle: 'Earn coupons for visiting, shopping and writing reviews.',
    signUpButtonText: 'Create account',
    logInButtonText: 'Log in',
    copiedMessage: 'Copied!',
    streaksTabTitle: 'Streaks',
    challengesTabTitle: 'Challenges',
    missionsTabTitle: 'Missions',
    rewardsTabTitle: 'Rewards',
  },
  leaderboard: { title: 'Top visitors', description: 'The longest daily visit runs going right now.' },
  currency: 'Stars',
  currencyOne: 'Star',
  tiers: ['Welcome to the club', '1.5× Stars on everything you earn', 'Double Stars on everything you earn'],
};

const fr: DemoTexts = {
  rewards: {
    tenOff: '10 % sur votre prochaine commande',
    fifteenOff: '15 % sur votre prochaine commande',
    fiveOff: '5 € sur votre prochaine commande',
    welcome: 'Cadeau de bienvenue : 20 %',
    starsFive: '5 € de réduction',
    starsTen: '10 € de réduction',
  },
  streak: {
    title: 'Visite quotidienne',
    description: 'Venez chaque jour : 3 jours de suite débloquent 10 %, une semaine complète 15 %.',
    milestones: ['Trois jours de suite', 'Une semaine complète'],
  },
  challenge: {
    title: 'Acheteur de la semaine',
    description: 'Dépensez 200 € cette semaine. À mi-chemin, 5 € offerts.',
    milestones: ['100 € dépensés', '200 € dépensés'],
  },
  mission: {
    title: 'Premiers pas',
    description: 'Terminez les trois en une semaine pour un cadeau de bienvenue.',
    tasks: { sign_up: 'Créer un compte', review: 'Écrire un avis produit', referral: 'Parrainer un ami' },
    milestone: 'Deux tâches terminées',
  },
  launcher: 'Récompenses',
  template: {
    loggedInTitle: 'Vos récompenses Demo Shop',
    loggedInSubTitle: 'Gardez votre série pour débloquer des coupons.',
    loggedOutTitle: 'Rejoignez Demo Shop Rewards',
    loggedOutSubTitle: 'Gagnez des coupons en visitant, en achetant et en laissant des avis.',
    signUpButtonText: 'Créer un compte',
    logInButtonText: 'Se connecter',
    copiedMessage: 'Copié !',
    streaksTabTitle: 'Séries',
    challengesTabTitle: 'Défis',
    missionsTabTitle: 'Missions',
    rewardsTabTitle: 'Récompenses',
  },
  leaderboard: { title: 'Meilleurs visiteurs', description: 'Les plus longues séries de visites en cours.' },
  currency: 'Étoiles',
  currencyOne: 'Étoile',
  tiers: ['Bienvenue au club', '1,5× Étoiles sur tout ce que vous gagnez', 'Étoiles doublées sur tout ce que vous gagnez'],
};

const es: DemoTexts = {
  rewards: {
    tenOff: '10 % de descuento en tu próximo pedido',
    fifteenOff: '15 % de descuento en tu próximo pedido',
    fiveOff: '5 € de descuento en tu próximo pedido',
    welcome: 'Regalo de bienvenida: 20 %',
    starsFive: '5 € de descuento',
    starsTen: '10 € de descuento',
  },
  streak: {
    title: 'Visita diaria',
    description: 'Visítanos cada día: 3 días seguidos desbloquean un 10 %, una semana completa un 15 %.',
    milestones: ['Tres días seguidos', 'Una semana completa'],
  },
  challenge: {
    title: 'Comprador de la semana',
    description: 'Gasta 200 € esta semana. A mitad de camino, 5 € de regalo.',
    milestones: ['100 € gastados', '200 € gastados'],
  },
  mission: {
    title: 'Primeros pasos',
    description: 'Completa las tres en una semana y recibe un regalo de bienvenida.',
    tasks: { sign_up: 'Crear una cuenta', review: 'Escribir una reseña', referral: 'Invitar a un amigo' },
    milestone: 'Dos tareas completadas',
  },
  launcher: 'Recompensas',
  template: {
    loggedInTitle: 'Tus recompensas de Demo Shop',
    loggedInSubTitle: 'Mantén tu racha para desbloquear cupones.',
    loggedOutTitle: 'Únete a Demo Shop Rewards',
    loggedOutSubTitle: 'Gana cupones por visitar, comprar y escribir reseñas.',
    signUpButtonText: 'Crear cuenta',
    logInButtonText: 'Iniciar sesión',
    copiedMessage: '¡Copiado!',
    streaksTabTitle: 'Rachas',
    challengesTabTitle: 'Retos',
    missionsTabTitle: 'Misiones',
    rewardsTabTitle: 'Recompensas',
  },
  leaderboard: { title: 'Mejores visitantes', description: 'Las rachas de visitas diarias más largas en curso.' },
  currency: 'Estrellas',
  currencyOne: 'Estrella',
  tiers: ['Bienvenido al club', '1,5× Estrellas en todo lo que ganes', 'Estrellas dobles en todo lo que ganes'],
};

const de: DemoTexts = {
  rewards: {
    tenOff: '10 % Rabatt auf deine nächste Bestellung',
    fifteenOff: '15 % Rabatt auf deine nächste Bestellung',
    fiveOff: '5 € Rabatt auf deine nächste Bestellung',
    welcome: 'Willkommensgeschenk: 20 % Rabatt',
    starsFive: '5 € Rabatt',
    starsTen: '10 € Rabatt',
  },
  streak: {
    title: 'Täglicher Besuch',
    description: 'Besuche uns jeden Tag: 3 Tage in Folge bringen 10 %, eine ganze Woche 15 %.',
    milestones: ['Drei Tage in Folge', 'Eine ganze Woche'],
  },
  challenge: {
    title: 'Einkauf der Woche',
    description: 'Kauf diese Woche für 200 € ein. Auf halbem Weg gibt es 5 € Rabatt.',
    milestones: ['100 € ausgegeben', '200 € ausgegeben'],
  },
  mission: {
    title: 'Erste Schritte',
    description: 'Erledige alle drei innerhalb einer Woche für ein Willkommensgeschenk.',
    tasks: { sign_up: 'Konto erstellen', review: 'Produktbewertung schreiben', referral: 'Freund empfehlen' },
    milestone: 'Zwei Aufgaben erledigt',
  },
  launcher: 'Prämien',
  template: {
    loggedInTitle: 'Deine Demo Shop Prämien',
    loggedInSubTitle: 'Bleib dran und schalte Gutscheine frei.',
    loggedOutTitle: 'Willkommen bei Demo Shop Rewards',
    loggedOutSubTitle: 'Sammle Gutscheine fürs Vorbeischauen, Einkaufen und Bewerten.',
    signUpButtonText: 'Konto erstellen',
    logInButtonText: 'Anmelden',
    copiedMessage: 'Kopiert!',
    streaksTabTitle: 'Serien',
    challengesTabTitle: 'Challenges',
    missionsTabTitle: 'Missionen',
    rewardsTabTitle: 'Prämien',
  },
  leaderboard: { title: 'Treueste Besucher', description: 'Die längsten Besuchsserien, die gerade laufen.' },
  currency: 'Sterne',
  currencyOne: 'Stern',
  tiers: ['Willkommen im Club', '1,5× Sterne auf alles, was du sammelst', 'Doppelte Sterne auf alles, was du sammelst'],
};

const it: DemoTexts = {
  rewards: {
    tenOff: '10% di sconto sul prossimo ordine',
    fifteenOff: '15% di sconto sul prossimo ordine',
    fiveOff: '5 € di sconto sul prossimo ordine',
    welcome: 'Regalo di benvenuto: 20% di sconto',
    starsFive: '5 € di sconto',
    starsTen: '10 € di sconto',
  },
  streak: {
    title: 'Visita quotidiana',
    description: 'Passa ogni giorno: 3 giorni di fila sbloccano il 10%, una settimana intera il 15%.',
    milestones: ['Tre giorni di fila', 'Una settimana intera'],
  },
  challenge: {
    title: 'Acquirente della settimana',
    description: 'Spendi 200 € questa settimana. A metà strada, 5 € in regalo.',
    milestones: ['100 € spesi', '200 € spesi'],
  },
  mission: {
    title: 'Primi passi',
    description: 'Completa tutte e tre entro una settimana per un regalo di benvenuto.',
    tasks: { sign_up: 'Crea un account', review: 'Scrivi una recensione', referral: 'Invita un amico' },
    milestone: 'Due attività completate',
  },
  launcher: 'Premi',
  template: {
    loggedInTitle: 'I tuoi premi Demo Shop',
    loggedInSubTitle: 'Mantieni la tua serie per sbloccare i coupon.',
    loggedOutTitle: 'Unisciti a Demo Shop Rewards',
    loggedOutSubTitle: 'Guadagna coupon visitando, acquistando e scrivendo recensioni.',
    signUpButtonText: 'Crea account',
    logInButtonText: 'Accedi',
    copiedMessage: 'Copiato!',
    streaksTabTitle: 'Serie',
    challengesTabTitle: 'Sfide',
    missionsTabTitle: 'Missioni',
    rewardsTabTitle: 'Premi',
  },
  leaderboard: { title: 'Visitatori più assidui', description: 'Le serie di visite quotidiane più lunghe in corso.' },
  currency: 'Stelle',
  currencyOne: 'Stella',
  tiers: ['Benvenuto nel club', '1,5× Stelle su tutto ciò che guadagni', 'Stelle doppie su tutto ciò che guadagni'],
};

const pt: DemoTexts = {
  rewards: {
    tenOff: '10% de desconto no próximo pedido',
    fifteenOff: '15% de desconto no próximo pedido',
    fiveOff: '€ 5 de desconto no próximo pedido',
    welcome: 'Presente de boas-vindas: 20%',
    starsFive: '€ 5 de desconto',
    starsTen: '€ 10 de desconto',
  },
  streak: {
    title: 'Visita diária',
    description: 'Venha nos visitar todos os dias: 3 dias seguidos liberam 10%, uma semana inteira, 15%.',
    milestones: ['Três dias seguidos', 'Uma semana inteira'],
  },
  challenge: {
    title: 'Comprador da semana',
    description: 'Gaste € 200 nesta semana. Na metade do caminho, você ganha € 5 de desconto.',
    milestones: ['€ 100 gastos', '€ 200 gastos'],
  },
  mission: {
    title: 'Primeiros passos',
    description: 'Conclua as três em uma semana para receber um presente de boas-vindas.',
    tasks: { sign_up: 'Criar uma conta', review: 'Escrever uma avaliação', referral: 'Convidar um amigo' },
    milestone: 'Duas tarefas concluídas',
  },
  launcher: 'Recompensas',
  template: {
    loggedInTitle: 'Suas recompensas Demo Shop',
    loggedInSubTitle: 'Mantenha sua sequência para desbloquear cupons.',
    loggedOutTitle: 'Participe do Demo Shop Rewards',
    loggedOutSubTitle: 'Ganhe cupons ao visitar, comprar e escrever avaliações.',
    signUpButtonText: 'Criar conta',
    logInButtonText: 'Entrar',
    copiedMessage: 'Copiado!',
    streaksTabTitle: 'Sequências',
    challengesTabTitle: 'Desafios',
    missionsTabTitle: 'Missões',
    rewardsTabTitle: 'Recompensas',
  },
  leaderboard: { title: 'Visitantes mais assíduos', description: 'As maiores sequências de visitas diárias em andamento.' },
  currency: 'Estrelas',
  currencyOne: 'Estrela',
  tiers: ['Boas-vindas ao clube', '1,5× Estrelas em tudo o que você ganhar', 'Estrelas em dobro em tudo o que você ganhar'],
};

const ja: DemoTexts = {
  rewards: {
    tenOff: '次回のご注文が10%オフ',
    fifteenOff: '次回のご注文が15%オフ',
    fiveOff: '次回のご注文が5ユーロオフ',
    welcome: 'ウェルカムギフト：20%オフ',
    starsFive: '5ユーロオフ',
    starsTen: '10ユーロオフ',
  },
  streak: {
    title: '毎日のご来店',
    description: '毎日ご来店ください。3日連続で10%オフ、1週間続けば15%オフ。',
    milestones: ['3日連続', '1週間連続'],
  },
  challenge: {
    title: '今週のお買い物',
    description: '今週200ユーロのお買い物で達成。半分で5ユーロオフ。',
    milestones: ['100ユーロ達成', '200ユーロ達成'],
  },
  mission: {
    title: 'はじめの一歩',
    description: '1週間以内に3つすべて完了するとウェルカムギフト。',
    tasks: { sign_up: 'アカウントを作成', review: '商品レビューを書く', referral: '友だちを紹介' },
    milestone: '2つのタスクを完了',
  },
  launcher: '特典',
  template: {
    loggedInTitle: 'Demo Shop の特典',
    loggedInSubTitle: '連続記録を続けてクーポンを獲得しましょう。',
    loggedOutTitle: 'Demo Shop Rewards に参加',
    loggedOutSubTitle: 'ご来店、お買い物、レビューでクーポンを獲得。',
    signUpButtonText: 'アカウント作成',
    logInButtonText: 'ログイン',
    copiedMessage: 'コピーしました！',
    streaksTabTitle: '連続記録',
    challengesTabTitle: 'チャレンジ',
    missionsTabTitle: 'ミッション',
    rewardsTabTitle: '特典',
  },
  leaderboard: { title: '来店ランキング', description: 'いま続いている毎日来店の最長記録。' },
  currency: 'スター',
  currencyOne: 'スター',
  tiers: ['クラブへようこそ', '獲得スターが1.5倍', '獲得スターが2倍'],
};

const ko: DemoTexts = {
  rewards: {
    tenOff: '다음 주문 10% 할인',
    fifteenOff: '다음 주문 15% 할인',
    fiveOff: '다음 주문 5유로 할인',
    welcome: '웰컴 선물: 20% 할인',
    starsFive: '5유로 할인',
    starsTen: '10유로 할인',
  },
  streak: {
    title: '매일 방문',
    description: '매일 방문하세요. 3일 연속이면 10%, 일주일 내내면 15% 할인.',
    milestones: ['3일 연속', '일주일 내내'],
  },
  challenge: {
    title: '이번 주 쇼핑',
    description: '이번 주에 200유로를 쇼핑하세요. 절반을 채우면 5유로 할인.',
    milestones: ['100유로 달성', '200유로 달성'],
  },
  mission: {
    title: '시작하기',
    description: '일주일 안에 세 가지를 모두 완료하면 웰컴 선물을 드려요.',
    tasks: { sign_up: '계정 만들기', review: '상품 리뷰 쓰기', referral: '친구 추천하기' },
    milestone: '두 가지 완료',
  },
  launcher: '리워드',
  template: {
    loggedInTitle: '나의 Demo Shop 리워드',
    loggedInSubTitle: '연속 기록을 이어가고 쿠폰을 받으세요.',
    loggedOutTitle: 'Demo Shop 리워드 가입',
    loggedOutSubTitle: '방문, 쇼핑, 리뷰로 쿠폰을 받으세요.',
    signUpButtonText: '계정 만들기',
    logInButtonText: '로그인',
    copiedMessage: '복사됨!',
    streaksTabTitle: '연속 기록',
    challengesTabTitle: '챌린지',
    missionsTabTitle: '미션',
    rewardsTabTitle: '리워드',
  },
  leaderboard: { title: '방문 랭킹', description: '지금 이어지고 있는 가장 긴 매일 방문 기록.' },
  currency: '스타',
  currencyOne: '스타',
  tiers: ['클럽에 오신 것을 환영합니다', '모든 적립 스타 1.5배', '모든 적립 스타 2배'],
};

const zhCN: DemoTexts = {
  rewards: {
    tenOff: '下次订单减 10%',
    fifteenOff: '下次订单减 15%',
    fiveOff: '下次订单减 5 欧元',
    welcome: '欢迎礼：减 20%',
    starsFive: '减 5 欧元',
    starsTen: '减 10 欧元',
  },
  streak: {
    title: '每日到访',
    description: '每天来逛逛：连续 3 天解锁 10% 优惠，连续一周解锁 15% 优惠。',
    milestones: ['连续 3 天', '连续一周'],
  },
  challenge: {
    title: '本周购物达人',
    description: '本周消费满 200 欧元。完成一半即得 5 欧元优惠。',
    milestones: ['已消费 100 欧元', '已消费 200 欧元'],
  },
  mission: {
    title: '新手入门',
    description: '一周内完成全部三项任务，即可获得欢迎礼。',
    tasks: { sign_up: '创建账户', review: '撰写商品评价', referral: '邀请好友' },
    milestone: '已完成两项任务',
  },
  launcher: '奖励',
  template: {
    loggedInTitle: '您的 Demo Shop 奖励',
    loggedInSubTitle: '保持连续记录，解锁优惠券。',
    loggedOutTitle: '加入 Demo Shop 奖励计划',
    loggedOutSubTitle: '到访、购物和评价都能赢优惠券。',
    signUpButtonText: '创建账户',
    logInButtonText: '登录',
    copiedMessage: '已复制！',
    streaksTabTitle: '连续记录',
    challengesTabTitle: '挑战',
    missionsTabTitle: '任务',
    rewardsTabTitle: '奖励',
  },
  leaderboard: { title: '到访排行榜', description: '当前最长的每日到访连续记录。' },
  currency: '星星',
  currencyOne: '星星',
  tiers: ['欢迎加入', '所得星星 1.5 倍', '所得星星翻倍'],
};

export const DEMO_TEXTS: Record<LanguageCode, DemoTexts> = { en, es, fr, de, 'zh-CN': zhCN, ja, pt, it, ko };
