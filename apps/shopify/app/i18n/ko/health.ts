import type { Messages } from '../messages';

export const health: Messages['health'] = {
  title: '프로그램 현황',
  period: '{range}, 비교 기간 {previous} ({timezone})',
  columns: { program: '프로그램', active: '활동 회원', completions: '완료', rewards: '지급된 리워드' },
  kinds: { streak: '연속 기록', challenge: '챌린지', mission: '미션' },
  periods: { daily: '일간', weekly: '주간', monthly: '월간' },
  previous: '이전 기간: {value}',
  up: '{percent}% 증가',
  down: '{percent}% 감소',
  same: '변동 없음',
  new: '신규',
  chartOf: '일별 활동 회원을 볼 프로그램',
  activePerDay: '{name}: 일별 활동 회원',
  emptyTitle: '아직 활성 상태인 연속 기록, 챌린지, 미션 없음',
  emptyBody: '연속 기록, 챌린지 또는 미션이 활성화되면 참여하고 완료하고 리워드를 받는 회원 수가 여기에 표시됩니다.',
  create: '연속 기록 생성',
};
