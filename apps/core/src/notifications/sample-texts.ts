import type { LanguageCode } from '../formats.js';

/**
 * The member-facing (EUD) texts of the sample data, per language: a preview in French shows the
 * French texts a French member's payload would carry. Names and descriptions, which only the
 * merchant sees, stay English in samples.ts.
 */
export interface SampleTexts {
  streakTitle: string;
  streakDescription: string;
  streakMilestoneMessage: string;
  streakCompleted: string;
  /** The 4-, 8- and 12-week milestones. */
  streakMilestones: [string, string, string];
  challengeTitle: string;
  challengeDescription: string;
  challengeMilestoneMessage: string;
  challengeCompleted: string;
  /** The milestones at 100 and 150 of 200. */
  challengeMilestones: [string, string];
  missionTitle: string;
  missionDescription: string;
  missionCompleted: string;
  /** Complete the profile, place a first order, write a review. */
  tasks: [string, string, string];
  /** The milestone at two of three tasks. */
  missionMilestone: string;
  rewardTitle: string;
  redeemInstruction: string;
}

export const SAMPLE_TEXTS: Record<LanguageCode, SampleTexts> = {
  en: {
    streakTitle: 'Weekly workout streak',
    streakDescription: 'Work out three times every week.',
    streakMilestoneMessage: 'You reached a new streak milestone!',
    streakCompleted: 'Twelve weeks in a row: streak complete!',
    streakMilestones: ['4-week streak', '8-week streak', '12-week streak'],
    challengeTitle: 'Spend 200 this month',
    challengeDescription: 'Spend 200 in our store this month.',
    challengeMilestoneMessage: 'You passed a challenge milestone!',
    challengeCompleted: 'Challenge complete!',
    challengeMilestones: ['Halfway there', 'Almost there'],
    missionTitle: 'Welcome mission',
    missionDescription: 'Three steps to get started.',
    missionCompleted: 'Welcome aboard!',
    tasks: ['Complete your profile', 'Place your first order', 'Write a review'],
    missionMilestone: 'Two down',
    rewardTitle: '15% off your next order',
    redeemInstruction: 'Use the offer code at checkout.',
  },
  es: {
    streakTitle: 'Racha semanal de entrenamiento',
    streakDescription: 'Entrena tres veces cada semana.',
    streakMilestoneMessage: '¡Has alcanzado un nuevo hito de tu racha!',
    streakCompleted: 'Doce semanas seguidas: ¡racha completada!',
    streakMilestones: ['Racha de 4 semanas', 'Racha de 8 semanas', 'Racha de 12 semanas'],
    challengeTitle: 'Gasta 200 este mes',
    challengeDescription: 'Gasta 200 en nuestra tienda este mes.',
    challengeMilestoneMessage: '¡Has superado un hito del reto!',
    challengeCompleted: '¡Reto completado!',
    challengeMilestones: ['A mitad de camino', 'Casi lo tienes'],
    missionTitle: 'Misión de bienvenida',
    missionDescription: 'Tres pasos para empezar.',
    missionCompleted: '¡Te damos la bienvenida!',
    tasks: ['Completa tu perfil', 'Haz tu primer pedido', 'Escribe una reseña'],
    missionMilestone: 'Dos completadas',
    rewardTitle: '15 % de descuento en tu próximo pedido',
    redeemInstruction: 'Usa el código de la oferta al pagar.',
  },
  fr: {
    streakTitle: 'Série d’entraînements hebdomadaires',
    streakDescription: 'Entraînez-vous trois fois par semaine.',
    streakMilestoneMessage: 'Vous avez franchi une nouvelle étape de votre série !',
    streakCompleted: 'Douze semaines d’affilée : série terminée !',
    streakMilestones: ['Série de 4 semaines', 'Série de 8 semaines', 'Série de 12 semaines'],
    challengeTitle: 'Dépensez 200 ce mois-ci',
    challengeDescription: 'Dépensez 200 dans notre boutique ce mois-ci.',
    challengeMilestoneMessage: 'Vous avez franchi une étape du défi !',
    challengeCompleted: 'Défi relevé !',
    challengeMilestones: ['À mi-chemin', 'Presque arrivé'],
    missionTitle: 'Mission de bienvenue',
    missionDescription: 'Trois étapes pour bien commencer.',
    missionCompleted: 'Bienvenue à bord !',
    tasks: ['Complétez votre profil', 'Passez votre première commande', 'Rédigez un avis'],
    missionMilestone: 'Deux de faites',
    rewardTitle: '15 % de réduction sur votre prochaine commande',
    redeemInstruction: 'Utilisez le code de l’offre lors du paiement.',
  },
  de: {
    streakTitle: 'Wöchentliche Trainingsserie',
    streakDescription: 'Trainiere jede Woche dreimal.',
    streakMilestoneMessage: 'Du hast einen neuen Meilenstein deiner Serie erreicht!',
    streakCompleted: 'Zwölf Wochen in Folge: Serie geschafft!',
    streakMilestones: ['4-Wochen-Serie', '8-Wochen-Serie', '12-Wochen-Serie'],
    challengeTitle: 'Gib diesen Monat 200 aus',
    challengeDescription: 'Gib diesen Monat 200 in unserem Shop aus.',
    challengeMilestoneMessage: 'Du hast einen Meilenstein der Challenge erreicht!',
    challengeCompleted: 'Challenge geschafft!',
    challengeMilestones: ['Halbzeit', 'Fast geschafft'],
    missionTitle: 'Willkommensmission',
    missionDescription: 'Drei Schritte für den Einstieg.',
    missionCompleted: 'Willkommen an Bord!',
    tasks: ['Vervollständige dein Profil', 'Gib deine erste Bestellung auf', 'Schreib eine Bewertung'],
    missionMilestone: 'Zwei erledigt',
    rewardTitle: '15 % Rabatt auf deine nächste Bestellung',
    redeemInstruction: 'Gib den Angebotscode an der Kasse ein.',
  },
  'zh-CN': {
    streakTitle: '每周健身连续打卡',
    streakDescription: '每周健身三次。',
    streakMilestoneMessage: '你达成了新的连续打卡里程碑！',
    streakCompleted: '连续十二周：打卡完成！',
    streakMilestones: ['连续 4 周', '连续 8 周', '连续 12 周'],
    challengeTitle: '本月消费 200',
    challengeDescription: '本月在我们的商店消费 200。',
    challengeMilestoneMessage: '你达成了一个挑战里程碑！',
    challengeCompleted: '挑战完成！',
    challengeMilestones: ['已完成一半', '即将完成'],
    missionTitle: '新手任务',
    missionDescription: '三步轻松上手。',
    missionCompleted: '欢迎加入！',
    tasks: ['完善个人资料', '完成首笔订单', '撰写一条评价'],
    missionMilestone: '已完成两项',
    rewardTitle: '下一笔订单立减 15%',
    redeemInstruction: '结账时使用优惠码。',
  },
  ja: {
    streakTitle: '毎週のトレーニング連続記録',
    streakDescription: '毎週3回トレーニングしましょう。',
    streakMilestoneMessage: '連続記録の新しいマイルストーンを達成しました！',
    streakCompleted: '12週連続：連続記録を達成！',
    streakMilestones: ['4週連続', '8週連続', '12週連続'],
    challengeTitle: '今月200を使おう',
    challengeDescription: '今月、当店で200をお使いください。',
    challengeMilestoneMessage: 'チャレンジのマイルストーンを達成しました！',
    challengeCompleted: 'チャレンジ達成！',
    challengeMilestones: ['折り返し地点', 'あと少し'],
    missionTitle: 'ウェルカムミッション',
    missionDescription: '始めるための3つのステップ。',
    missionCompleted: 'ようこそ！',
    tasks: ['プロフィールを完成させる', '初めての注文をする', 'レビューを書く'],
    missionMilestone: '2つ達成',
    rewardTitle: '次回のご注文が15%オフ',
    redeemInstruction: 'お会計時にクーポンコードをご利用ください。',
  },
  pt: {
    streakTitle: 'Sequência semanal de treinos',
    streakDescription: 'Treine três vezes por semana.',
    streakMilestoneMessage: 'Você alcançou um novo marco da sua sequência!',
    streakCompleted: 'Doze semanas seguidas: sequência concluída!',
    streakMilestones: ['Sequência de 4 semanas', 'Sequência de 8 semanas', 'Sequência de 12 semanas'],
    challengeTitle: 'Gaste 200 este mês',
    challengeDescription: 'Gaste 200 em nossa loja este mês.',
    challengeMilestoneMessage: 'Você atingiu um marco do desafio!',
    challengeCompleted: 'Desafio concluído!',
    challengeMilestones: ['Na metade do caminho', 'Quase lá'],
    missionTitle: 'Missão de boas-vindas',
    missionDescription: 'Três passos para começar.',
    missionCompleted: 'Boas-vindas!',
    tasks: ['Complete seu perfil', 'Faça seu primeiro pedido', 'Escreva uma avaliação'],
    missionMilestone: 'Duas concluídas',
    rewardTitle: '15% de desconto no seu próximo pedido',
    redeemInstruction: 'Use o código da oferta ao finalizar a compra.',
  },
  it: {
    streakTitle: 'Serie settimanale di allenamenti',
    streakDescription: 'Allenati tre volte ogni settimana.',
    streakMilestoneMessage: 'Hai raggiunto un nuovo traguardo della tua serie!',
    streakCompleted: 'Dodici settimane di fila: serie completata!',
    streakMilestones: ['Serie di 4 settimane', 'Serie di 8 settimane', 'Serie di 12 settimane'],
    challengeTitle: 'Spendi 200 questo mese',
    challengeDescription: 'Spendi 200 nel nostro negozio questo mese.',
    challengeMilestoneMessage: 'Hai superato un traguardo della sfida!',
    challengeCompleted: 'Sfida completata!',
    challengeMilestones: ['A metà strada', 'Quasi fatto'],
    missionTitle: 'Missione di benvenuto',
    missionDescription: 'Tre passi per iniziare.',
    missionCompleted: 'Benvenuto a bordo!',
    tasks: ['Completa il tuo profilo', 'Effettua il tuo primo ordine', 'Scrivi una recensione'],
    missionMilestone: 'Due completati',
    rewardTitle: '15% di sconto sul tuo prossimo ordine',
    redeemInstruction: 'Usa il codice dell’offerta al momento del pagamento.',
  },
  ko: {
    streakTitle: '주간 운동 연속 기록',
    streakDescription: '매주 세 번 운동하세요.',
    streakMilestoneMessage: '연속 기록의 새 마일스톤을 달성했어요!',
    streakCompleted: '12주 연속: 연속 기록 완료!',
    streakMilestones: ['4주 연속', '8주 연속', '12주 연속'],
    challengeTitle: '이번 달 200 쓰기',
    challengeDescription: '이번 달 저희 스토어에서 200을 사용하세요.',
    challengeMilestoneMessage: '챌린지 마일스톤을 달성했어요!',
    challengeCompleted: '챌린지 완료!',
    challengeMilestones: ['절반 달성', '거의 다 왔어요'],
    missionTitle: '웰컴 미션',
    missionDescription: '시작을 위한 세 단계.',
    missionCompleted: '환영합니다!',
    tasks: ['프로필 완성하기', '첫 주문하기', '리뷰 작성하기'],
    missionMilestone: '두 개 완료',
    rewardTitle: '다음 주문 15% 할인',
    redeemInstruction: '결제 시 할인 코드를 사용하세요.',
  },
};
