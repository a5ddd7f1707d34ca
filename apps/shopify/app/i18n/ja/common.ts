import type { Messages } from '../messages';

export const common: Messages['common'] = {
  nav: {
    dashboard: 'ダッシュボード',
    streaks: '連続記録',
    challenges: 'チャレンジ',
    missions: 'ミッション',
    leaderboards: 'ランキング',
    rewards: '特典',
    members: '会員',
    points: 'ポイント',
    tiers: 'VIPランク',
    widget: 'ウィジェット',
    webhooks: 'Webhook',
    notifications: '通知',
    dataRequests: 'データリクエスト',
  },
  save: '保存',
  cancel: 'キャンセル',
  discard: '破棄',
  delete: '削除',
  create: '作成',
  saved: '保存しました',
  created: '作成しました',
  deleted: '削除しました',
  confirmDelete: {
    title: '{name}を削除しますか？',
    body: 'この操作は元に戻せません。',
  },
  show: '表示',
  actions: '操作',
  from: '開始日',
  to: '終了日',
  unavailable: {
    title: 'ロイヤルティサービスから応答がありません',
    body: '現在このページを読み込めませんでした。設定内容は変更されていません。1分ほどしてから再度お試しください。',
    action: '再試行',
  },
  back: '戻る',
  notFound: {
    title: '見つかりません',
    body: 'このページは存在しないか、表示していた内容が削除されました。',
    action: 'ダッシュボードに移動',
  },
  refused: {
    title: 'このページではその操作を実行できません',
    body: 'このアドレスは対応していない方法でリクエストされました。アプリのナビゲーションから開いてください。',
  },
  failed: {
    title: '問題が発生しました',
    body: 'このページを表示できませんでした。1分ほどしてから再度お試しください。',
  },
};
