import type { Messages } from '../messages';

export const dataRequests: Messages['dataRequests'] = {
  title: '고객 데이터 요청',
  subtitle: 'Shopify에 자신의 데이터를 요청한 고객에 대해 로열티 프로그램이 보유한 정보입니다. 고객에게 보내십시오.',
  columns: { receivedAt: '수신 일시', customer: '고객', request: '요청' },
  customerLink: 'Shopify에서 열기',
  download: '다운로드',
  downloadLabel: '요청 {id} 다운로드',
  downloadFailed: '요청 {id}의 내보내기 파일을 다운로드할 수 없습니다({status}).',
  empty: '아직 데이터 요청 없음',
  emptyHelp: '고객이 자신의 데이터를 요청하면 Shopify가 앱에 알리고 내보내기 파일이 여기에 표시됩니다.',
  notFound: '해당 데이터 요청이 없습니다.',
};
