import type { Messages } from '../messages';

export const dataRequests: Messages['dataRequests'] = {
  title: '顧客データリクエスト',
  subtitle: 'Shopifyにデータを請求した顧客について、ロイヤルティプログラムが保有している情報です。顧客に送付してください。',
  columns: { receivedAt: '受信日時', customer: '顧客', request: 'リクエスト' },
  customerLink: 'Shopifyで開く',
  download: 'ダウンロード',
  downloadLabel: 'リクエスト{id}をダウンロード',
  downloadFailed: 'リクエスト{id}のエクスポートをダウンロードできませんでした（{status}）。',
  empty: 'データリクエストはまだありません',
  emptyHelp: '顧客が自分のデータを請求すると、Shopifyからアプリに通知され、ここにエクスポートが表示されます。',
  notFound: 'このデータリクエストは存在しません。',
};
