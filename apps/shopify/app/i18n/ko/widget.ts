import type { Messages } from '../messages';

export const widget: Messages['widget'] = {
  title: '위젯',
  new: '새로 만들기',
  preview: '실시간 미리 보기',
  previewHelp:
    '스토어에는 활성 상태인 가장 오래된 플로팅 위젯, 테마, 템플릿(“스토어에 표시 중”으로 표시됨)이 표시됩니다. 앱이 이를 “Loyalty widget” 앱 임베드에 자동으로 전달합니다. 여기에서 어떤 조합이든 미리 볼 수 있습니다.',
  onStore: '스토어에 표시 중',
  show: '미리 보기 표시',
  incomplete: '위젯을 미리 보려면 플로팅 위젯, 테마, 템플릿을 만드십시오.',
  frameTitle: '위젯 미리 보기',
  frameNote: '온라인 스토어 미리 보기(게스트 화면)',
  page: '로열티 페이지',
  pageHelp:
    '“리워드” 페이지처럼 스토어의 한 페이지에 프로그램 전체를 표시합니다. 적립 방법, 교환할 수 있는 리워드, 등급이 표시되고, 로그인한 고객에게는 보유 포인트와 교환 버튼도 표시됩니다. “Loyalty widget” 앱 임베드가 켜져 있어야 합니다.',
  addPage: '테마 편집기에서 페이지에 추가',
  reminder: '런처 옆 미리 알림',
  reminderHelp:
    '방문당 한 번, 페이지가 열리고 몇 초 후에 위젯이 게스트에게는 계정을 만들면 받는 혜택을, 회원에게는 보유 포인트로 받을 수 있는 리워드나 가장 가까운 리워드까지 남은 포인트를 알려 줍니다. 누르면 보유 포인트 화면이 열립니다. “Loyalty widget” 앱 임베드에서 “고객에게 포인트 알림” 선택을 해제하지 않는 한 켜져 있습니다.',
  reminderSettings: '테마 편집기에서 앱 임베드 열기',
};
