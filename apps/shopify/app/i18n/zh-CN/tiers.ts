import type { Messages } from '../messages';

export const tiers: Messages['tiers'] = {
  pointsWord: '积分',
  list: {
    title: 'VIP 等级',
    new: '新建等级',
    intro: '会员根据获得的{points}逐级升入这些等级。等级会按倍数提高其会员的所得，并可在会员首次达到该等级时发放一次奖励。',
    window: {
      months: '会员的等级按最近 {months} 个月内获得的{points}计算，因此随着较早的{points}移出该期间，停止购买的会员会降级。',
      lifetime: '会员的等级按其累计获得的全部{points}计算，因此不会有人降级。',
    },
    settings: '积分设置',
    pointsOff: '积分已关闭：在您开启之前，没有人能获得{points}或升级。',
    from: '{threshold} {points}起',
    earns: '获得 {multiplier} 倍{points}',
    earnsUsual: '获得常规{points}',
    entryReward: '达到时的奖励：{reward}',
    members: { one: '{count} 位会员', other: '{count} 位会员' },
    noEntryReward: '达到时无奖励',
    goneReward: '已不存在的奖励',
    allRecords: '以记录形式查看所有等级',
    empty: {
      heading: '用 VIP 等级奖励您的最佳客户',
      body: '获得更多{points}的会员会升入更高的等级（例如白银和黄金），在新等级中累积得更快，并在升级时获得奖励。',
      action: '创建第一个等级',
    },
  },
  onPointsPage: {
    title: 'VIP 等级',
    body: '获得更多积分的会员会升入更高等级，享受积分倍数加成，并在升级时获得奖励。',
    action: '编辑 VIP 等级',
  },
  editor: {
    newTitle: '新建等级',
    deleteMembers: {
      one: '目前有 1 位会员处于此等级：在其下一次获得积分或每日更新将其归入其他等级之前，该会员将不属于任何等级。',
      other: '目前有 {count} 位会员处于此等级：在其下一次获得积分或每日更新将其归入其他等级之前，这些会员将不属于任何等级。',
    },
    sections: { tier: '等级', perks: '权益', shopper: '顾客看到的内容' },
    name: { label: '名称', help: '顾客会在小组件和其账户中看到它，例如“黄金”。' },
    threshold: {
      label: '达到此等级所需{points}',
      help: '会员在等级计算期内获得的{points}达到此数值时，即升入此等级。0：所有会员都从此等级开始。',
      taken: '{tier}也从这个数值开始：请为每个已上线的等级设置不同的数值。',
    },
    multiplier: {
      label: '积分倍数',
      help: '此等级的会员获得的{points}为常规的这个倍数，范围为 1 到 10，例如 1.5（结果向下取整）。',
      oneDecimal: '{label}最多只能有一位小数，例如 1.5。',
    },
    entryReward: {
      label: '达到时的奖励',
      help: '每位会员仅在首次达到此等级时获得一次。跳过某个等级的会员只会获得其最终所在等级的奖励。',
      none: '无奖励',
    },
    status: { help: '只有已上线的等级才会容纳会员并向顾客显示。' },
    description: {
      label: '此等级会员享有的权益',
      help: '顾客会在等级旁看到这段文字，例如“所有订单免运费”。',
    },
  },
};
