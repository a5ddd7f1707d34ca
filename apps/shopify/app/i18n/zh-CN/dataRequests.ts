import type { Messages } from '../messages';

export const dataRequests: Messages['dataRequests'] = {
  title: '客户数据请求',
  subtitle: '客户向 Shopify 请求其数据时，会员奖励计划持有的该客户数据。请将其发送给客户。',
  columns: { receivedAt: '接收时间', customer: '客户', request: '请求' },
  customerLink: '在 Shopify 中打开',
  download: '下载',
  downloadLabel: '下载请求 {id}',
  downloadFailed: '无法下载请求 {id} 的导出文件（{status}）。',
  empty: '暂无数据请求',
  emptyHelp: '客户请求其数据时，Shopify 会通知应用，导出文件将显示在此处。',
  notFound: '没有此数据请求。',
};
