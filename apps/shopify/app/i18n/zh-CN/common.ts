import type { Messages } from '../messages';

export const common: Messages['common'] = {
  nav: {
    dashboard: '仪表板',
    streaks: '连续记录',
    challenges: '挑战',
    missions: '任务',
    leaderboards: '排行榜',
    rewards: '奖励',
    members: '会员',
    points: '积分',
    tiers: 'VIP 等级',
    widget: '小组件',
    webhooks: 'Webhook',
    notifications: '通知',
    dataRequests: '数据请求',
  },
  save: '保存',
  cancel: '取消',
  discard: '放弃',
  delete: '删除',
  create: '创建',
  saved: '已保存',
  created: '已创建',
  deleted: '已删除',
  confirmDelete: {
    title: '删除“{name}”？',
    body: '此操作无法撤销。',
  },
  show: '显示',
  actions: '操作',
  from: '起始日期',
  to: '结束日期',
  unavailable: {
    title: '会员奖励服务没有响应',
    body: '暂时无法加载此内容。您的设置没有任何变化，请稍后重试。',
    action: '重试',
  },
  back: '返回',
  notFound: {
    title: '未找到',
    body: '此页面不存在，或其显示的内容已被删除。',
    action: '前往仪表板',
  },
  refused: {
    title: '此页面无法执行该操作',
    body: '此地址的请求方式不受支持。请从应用的导航中打开它。',
  },
  failed: {
    title: '出现问题',
    body: '无法显示此页面。请稍后重试。',
  },
};
