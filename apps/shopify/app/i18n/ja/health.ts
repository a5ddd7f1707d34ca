import type { Messages } from '../messages';

export const health: Messages['health'] = {
  title: 'プログラムの状況',
  period: '{range}と{previous}の比較（{timezone}）',
  columns: { program: 'プログラム', active: 'アクティブな会員', completions: '達成数', rewards: '発行された特典' },
  kinds: { streak: '連続記録', challenge: 'チャレンジ', mission: 'ミッション' },
  periods: { daily: '毎日', weekly: '毎週', monthly: '毎月' },
  previous: '前の期間：{value}',
  up: '{percent}%増',
  down: '{percent}%減',
  same: '変化なし',
  new: '新規',
  chartOf: '日別のアクティブな会員を表示するプログラム',
  activePerDay: '{name}：日別のアクティブな会員',
  emptyTitle: '公開中の連続記録、チャレンジ、ミッションはまだありません',
  emptyBody: '連続記録、チャレンジ、ミッションを公開すると、参加・達成して特典を獲得した会員の数がここに表示されます。',
  create: '連続記録を作成',
};
