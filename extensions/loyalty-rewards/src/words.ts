import { stringsFor, type Strings } from '@loyalty/view-model';

/** The page's own words; the rest (retry, copy, reached, …) are the widget's, from the view model. */
export interface Words {
  title: string;
  streaks: string;
  challenges: string;
  missions: string;
  leaderboards: string;
  rewards: string;
  emptyTitle: string;
  emptyBody: string;
  /** `{date}`: when the code stops working. */
  validUntil: string;
  /** The toast once the referral link is copied. */
  linkCopied: string;
  /** The toast once a reward's code is copied. */
  codeCopied: string;
}

const WORDS: Record<string, Words> = {
  en: {
    title: 'Rewards',
    streaks: 'Streaks',
    challenges: 'Challenges',
    missions: 'Missions',
    leaderboards: 'Leaderboards',
    rewards: 'Your rewards',
    emptyTitle: 'No activity yet',
    emptyBody: 'Your streaks, challenges and rewards show here once you start shopping. Here is what you can earn.',
    validUntil: 'Valid until {date}',
    linkCopied: 'Link copied',
    codeCopied: 'Code copied',
  },
  fr: {
    title: 'Récompenses',
    streaks: 'Séries',
    challenges: 'Défis',
    missions: 'Missions',
    leaderboards: 'Classements',
    rewards: 'Vos récompenses',
    emptyTitle: 'Aucune activité pour le moment',
    emptyBody: 'Vos séries, défis et récompenses apparaîtront ici dès vos premiers achats. Voici ce que vous pouvez gagner.',
    validUntil: "Valable jusqu'au {date}",
    linkCopied: 'Lien copié',
    codeCopied: 'Code copié',
  },
  es: {
    title: 'Recompensas',
    streaks: 'Rachas',
    challenges: 'Retos',
    missions: 'Misiones',
    leaderboards: 'Clasificaciones',
    rewards: 'Tus recompensas',
    emptyTitle: 'Aún no hay actividad',
    emptyBody: 'Tus rachas, retos y recompensas aparecerán aquí cuando empieces a comprar. Esto es lo que puedes ganar.',
    validUntil: 'Válido hasta el {date}',
    linkCopied: 'Enlace copiado',
    codeCopied: 'Código copiado',
  },
  de: {
    title: 'Prämien',
    streaks: 'Serien',
    challenges: 'Challenges',
    missions: 'Missionen',
    leaderboards: 'Bestenlisten',
    rewards: 'Deine Prämien',
    emptyTitle: 'Noch keine Aktivität',
    emptyBody: 'Deine Serien, Challenges und Prämien erscheinen hier, sobald du einkaufst. Das kannst du dir verdienen.',
    validUntil: 'Gültig bis {date}',
    linkCopied: 'Link kopiert',
    codeCopied: 'Code kopiert',
  },
  it: {
    title: 'Premi',
    streaks: 'Serie',
    challenges: 'Sfide',
    missions: 'Missioni',
    leaderboards: 'Classifiche',
    rewards: 'I tuoi premi',
    emptyTitle: 'Ancora nessuna attività',
    emptyBody: 'Le tue serie, sfide e premi appariranno qui quando inizierai ad acquistare. Ecco cosa puoi ottenere.',
    validUntil: 'Valido fino al {date}',
    linkCopied: 'Link copiato',
    codeCopied: 'Codice copiato',
  },
  pt: {
    title: 'Recompensas',
    streaks: 'Sequências',
    challenges: 'Desafios',
    missions: 'Missões',
    leaderboards: 'Rankings',
    rewards: 'Suas recompensas',
    emptyTitle: 'Nenhuma atividade ainda',
    emptyBody: 'Suas sequências, desafios e recompensas aparecem aqui quando você começar a comprar. Veja o que você pode ganhar.',
    validUntil: 'Válido até {date}',
    linkCopied: 'Link copiado',
    codeCopied: 'Código copiado',
  },
  ja: {
    title: 'リワード',
    streaks: '連続記録',
    challenges: 'チャレンジ',
    missions: 'ミッション',
    leaderboards: 'ランキング',
    rewards: 'あなたのリワード',
    emptyTitle: 'まだアクティビティはありません',
    emptyBody: 'お買い物を始めると、連続記録・チャレンジ・リワードがここに表示されます。獲得できる特典はこちらです。',
    validUntil: '{date}まで有効',
    linkCopied: 'リンクをコピーしました',
    codeCopied: 'コードをコピーしました',
  },
  ko: {
    title: '리워드',
    streaks: '연속 기록',
    challenges: '챌린지',
    missions: '미션',
    leaderboards: '순위표',
    rewards: '내 리워드',
    emptyTitle: '아직 활동이 없습니다',
    emptyBody: '쇼핑을 시작하면 연속 기록, 챌린지, 리워드가 여기에 표시됩니다. 받을 수 있는 혜택은 다음과 같습니다.',
    validUntil: '{date}까지 유효',
    linkCopied: '링크를 복사했습니다',
    codeCopied: '코드를 복사했습니다',
  },
  'zh-CN': {
    title: '奖励',
    streaks: '连续记录',
    challenges: '挑战',
    missions: '任务',
    leaderboards: '排行榜',
    rewards: '我的奖励',
    emptyTitle: '暂无活动',
    emptyBody: '开始购物后，您的连续记录、挑战和奖励会显示在这里。以下是您可以获得的奖励。',
    validUntil: '有效期至 {date}',
    linkCopied: '链接已复制',
    codeCopied: '代码已复制',
  },
};

export const wordsFor = (lang: string): { t: Strings; w: Words } => ({ t: stringsFor(lang), w: WORDS[lang] ?? WORDS.en! });
