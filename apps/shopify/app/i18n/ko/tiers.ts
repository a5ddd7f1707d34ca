import type { Messages } from '../messages';

export const tiers: Messages['tiers'] = {
  pointsWord: '포인트',
  list: {
    title: 'VIP 등급',
    new: '새 등급',
    intro:
      '회원은 적립한 {points}에 따라 등급이 올라갑니다. 등급마다 회원의 적립량에 배수를 적용하고, 회원이 처음 도달했을 때 한 번 리워드를 줄 수 있습니다.',
    window: {
      months:
        '회원의 등급은 최근 {months}개월 동안 적립한 {points} 기준으로 정해집니다. 따라서 구매를 멈춘 회원은 오래된 {points} 적립분이 기간에서 빠지면서 등급이 내려갑니다.',
      lifetime: '회원의 등급은 지금까지 적립한 모든 {points} 기준으로 정해지므로 등급이 내려가지 않습니다.',
    },
    settings: '포인트 설정',
    pointsOff: '포인트가 꺼져 있습니다. 켜기 전까지는 {points} 적립과 등급 상승이 일어나지 않습니다.',
    from: '{threshold} {points}부터',
    earns: '{points} {multiplier}배 적립',
    earnsUsual: '{points} 기본 적립',
    entryReward: '도달 시 리워드: {reward}',
    members: { one: '회원 {count}명', other: '회원 {count}명' },
    noEntryReward: '도달 시 리워드 없음',
    goneReward: '더 이상 존재하지 않는 리워드',
    allRecords: '모든 등급을 레코드로 보기',
    empty: {
      heading: 'VIP 등급으로 우수 고객에게 보상하십시오',
      body: '{points} 적립이 많은 회원은 실버, 골드처럼 더 높은 등급에 도달해 더 빠르게 적립하고 도달 시 리워드를 받습니다.',
      action: '첫 등급 만들기',
    },
  },
  onPointsPage: {
    title: 'VIP 등급',
    body: '포인트를 많이 적립한 회원은 적립 배수가 높아지는 등급에 도달하고 도달 시 리워드를 받습니다.',
    action: 'VIP 등급 편집',
  },
  editor: {
    newTitle: '새 등급',
    deleteMembers: {
      one: '현재 회원 1명이 이 등급에 있습니다. 다음 포인트 적립이나 매일 실행되는 등급 재산정으로 다른 등급이 정해질 때까지 등급이 없게 됩니다.',
      other:
        '현재 회원 {count}명이 이 등급에 있습니다. 다음 포인트 적립이나 매일 실행되는 등급 재산정으로 다른 등급이 정해질 때까지 등급이 없게 됩니다.',
    },
    sections: { tier: '등급', perks: '혜택', shopper: '고객에게 표시되는 내용' },
    name: { label: '이름', help: '위젯과 고객 계정에 표시됩니다(예: 골드).' },
    threshold: {
      label: '도달에 필요한 {points}',
      help: '등급 산정 기간의 {points} 적립량이 이 값에 이르면 회원이 이 등급에 도달합니다. 0이면 모든 회원이 이 등급에서 시작합니다.',
      taken: '{tier}도 이 값에서 시작합니다. 활성 등급마다 서로 다른 값을 지정하십시오.',
    },
    multiplier: {
      label: '포인트 배수',
      help: '이 등급의 회원은 {points} 적립량에 이 배수가 적용됩니다. 1~10 사이로 입력하며(예: 1.5), 적립량의 소수점 이하는 내림합니다.',
      oneDecimal: '{label}은(는) 소수점 이하 한 자리까지 입력할 수 있습니다(예: 1.5).',
    },
    entryReward: {
      label: '도달 시 리워드',
      help: '회원이 이 등급에 처음 도달할 때 회원당 한 번 지급됩니다. 등급을 건너뛴 회원은 최종 도달한 등급의 리워드만 받습니다.',
      none: '리워드 없음',
    },
    status: { help: '활성 등급만 회원을 보유하고 고객에게 표시됩니다.' },
    description: {
      label: '이 등급 회원의 혜택',
      help: '등급 옆에 고객에게 표시됩니다(예: “모든 주문 무료 배송”).',
    },
  },
};
