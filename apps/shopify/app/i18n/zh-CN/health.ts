import type { Messages } from '../messages';

export const health: Messages['health'] = {
  title: '计划健康状况',
  period: '{range} 对比 {previous}（{timezone}）',
  columns: { program: '计划', active: '活跃会员', completions: '完成次数', rewards: '已发放奖励' },
  kinds: { streak: '连续记录', challenge: '挑战', mission: '任务' },
  periods: { daily: '每日', weekly: '每周', monthly: '每月' },
  previous: '上一期间：{value}',
  up: '上升 {percent}%',
  down: '下降 {percent}%',
  same: '无变化',
  new: '新',
  chartOf: '查看每日活跃会员的计划',
  activePerDay: '{name}：每日活跃会员',
  emptyTitle: '暂无已上线的连续记录、挑战或任务',
  emptyBody: '连续记录、挑战或任务上线后，此处会显示有多少会员参与、完成并获得奖励。',
  create: '创建连续记录',
};
