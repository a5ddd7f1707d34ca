import type { Messages } from '../messages';

export const common: Messages['common'] = {
  nav: {
    dashboard: '대시보드',
    streaks: '연속 기록',
    challenges: '챌린지',
    missions: '미션',
    leaderboards: '순위표',
    rewards: '리워드',
    members: '회원',
    points: '포인트',
    tiers: 'VIP 등급',
    widget: '위젯',
    webhooks: '웹후크',
    notifications: '알림',
    dataRequests: '데이터 요청',
  },
  save: '저장',
  cancel: '취소',
  discard: '폐기',
  delete: '삭제',
  create: '생성',
  saved: '저장됨',
  created: '생성됨',
  deleted: '삭제됨',
  confirmDelete: {
    title: '{name}을(를) 삭제하시겠습니까?',
    body: '이 작업은 취소할 수 없습니다.',
  },
  show: '표시',
  actions: '작업',
  from: '시작',
  to: '종료',
  unavailable: {
    title: '로열티 서비스가 응답하지 않았습니다',
    body: '지금은 이 페이지를 불러올 수 없습니다. 설정한 내용은 변경되지 않았습니다. 잠시 후 다시 시도하십시오.',
    action: '다시 시도',
  },
  back: '뒤로',
  notFound: {
    title: '찾을 수 없음',
    body: '이 페이지가 존재하지 않거나 표시하던 항목이 삭제되었습니다.',
    action: '대시보드로 이동',
  },
  refused: {
    title: '이 페이지에서는 해당 작업을 할 수 없습니다',
    body: '이 주소는 지원하지 않는 방식으로 요청되었습니다. 앱의 탐색 메뉴에서 여십시오.',
  },
  failed: {
    title: '문제가 발생했습니다',
    body: '이 페이지를 표시할 수 없습니다. 잠시 후 다시 시도하십시오.',
  },
};
