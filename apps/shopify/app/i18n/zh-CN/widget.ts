import type { Messages } from '../messages';

export const widget: Messages['widget'] = {
  title: '小组件',
  new: '新建',
  preview: '实时预览',
  previewHelp:
    '店面显示最早上线的浮动小组件、主题和文案模板（标有“在您的商店中”）：应用会自动将它们交给“Loyalty widget”应用嵌入。您可以在此预览其中任意一个。',
  onStore: '在您的商店中',
  show: '显示预览',
  incomplete: '请创建浮动小组件、主题和文案模板，以预览小组件。',
  frameTitle: '小组件预览',
  frameNote: '店面预览（访客视图）',
  page: '会员奖励页面',
  pageHelp:
    '在商店的某个页面（例如“奖励”页面）上展示您的整个计划：赚取积分的方式、可兑换的奖励和等级，已登录的客户还能看到自己的积分和“兑换”按钮。需要开启“Loyalty widget”应用嵌入。',
  addPage: '在模板编辑器中添加到页面',
  product: '商品页面上的积分',
  productHelp:
    '在商品价格下方显示购买可获得的积分：“购买此商品可获得 39 积分”，按顾客所选的款式计算，包含已登录顾客的 VIP 等级倍数和进行中的额外积分活动。积分开启并按消费金额发放时显示，无需应用嵌入，也不会向您按标签排除的顾客承诺任何积分。',
  addProduct: '在模板编辑器中添加到商品页面',
  reminder: '启动按钮旁的提醒',
  reminderHelp:
    '每次访问时，在页面打开几秒后，小组件会提醒访客创建账户可获得什么，并提醒会员其积分已可兑换哪个奖励，或距离最近的奖励还差多少积分；点击后会打开其积分。此功能默认开启，除非您在“Loyalty widget”应用嵌入中取消勾选“提醒顾客他们的积分”。',
  reminderSettings: '在模板编辑器中打开应用嵌入',
};
