import type { Messages } from '../messages';

export const tiers: Messages['tiers'] = {
  pointsWord: 'ポイント',
  list: {
    title: 'VIPランク',
    new: '新しいランク',
    intro:
      '会員は獲得した{points}に応じてランクが上がります。ランクごとに獲得量の倍率を設定でき、初めて到達したときに1回だけ特典を贈ることもできます。',
    window: {
      months:
        '会員のランクは直近{months}か月に獲得した{points}で決まります。購入が途絶えた会員は、古い{points}が集計期間から外れるにつれてランクが下がります。',
      lifetime: '会員のランクはこれまでに獲得したすべての{points}で決まるため、ランクが下がることはありません。',
    },
    settings: 'ポイント設定',
    pointsOff: 'ポイントは無効です。有効にするまで、{points}の獲得やランクアップは行われません。',
    from: '{threshold}{points}以上',
    earns: '{points}{multiplier}倍',
    earnsUsual: '通常どおり{points}を獲得',
    entryReward: '到達時の特典：{reward}',
    members: { one: '会員{count}人', other: '会員{count}人' },
    noEntryReward: '到達時の特典なし',
    goneReward: '削除された特典',
    allRecords: 'すべてのランクをレコードとして表示',
    empty: {
      heading: 'VIPランクで優良顧客に特典を贈りましょう',
      body: 'より多くの{points}を獲得した会員は、シルバーやゴールドなどの上位ランクに到達し、より早く貯められるようになり、到達時に特典を受け取れます。',
      action: '最初のランクを作成',
    },
  },
  onPointsPage: {
    title: 'VIPランク',
    body: 'より多くのポイントを獲得した会員は、獲得ポイントが倍増するランクに到達し、到達時に特典を受け取れます。',
    action: 'VIPランクを編集',
  },
  editor: {
    newTitle: '新しいランク',
    deleteMembers: {
      one: '現在このランクには会員が1人います。次にポイントを獲得するか、毎日の再判定で別のランクに振り分けられるまで、この会員はどのランクにも属さなくなります。',
      other:
        '現在このランクには会員が{count}人います。次にポイントを獲得するか、毎日の再判定で別のランクに振り分けられるまで、これらの会員はどのランクにも属さなくなります。',
    },
    sections: { tier: 'ランク', perks: '優待内容', shopper: 'お客様に表示される内容' },
    name: { label: '名前', help: 'ウィジェットとお客様のアカウントに表示されます（例：ゴールド）。' },
    threshold: {
      label: '到達に必要な{points}',
      help: 'ランクの集計期間内に獲得した{points}がこの数に達すると、会員はこのランクに到達します。0：すべての会員がこのランクから始まります。',
      taken: '{tier}もこの数から始まります。公開中のランクにはそれぞれ異なる数を設定してください。',
    },
    multiplier: {
      label: 'ポイント倍率',
      help: 'このランクの会員は、{points}をこの倍率で獲得します。1〜10の範囲で指定します（例：1.5、端数切り捨て）。',
      oneDecimal: '{label}は小数点以下1桁まで指定できます（例：1.5）。',
    },
    entryReward: {
      label: '到達時の特典',
      help: '会員1人につき1回、初めてこのランクに到達したときに贈られます。ランクを飛び越えた会員には、到達したランクの特典のみが贈られます。',
      none: '特典なし',
    },
    status: { help: '公開中のランクのみに会員が所属し、お客様に表示されます。' },
    description: {
      label: 'このランクの会員が受けられる優待',
      help: 'お客様にはランクの横に表示されます（例：「すべての注文で送料無料」）。',
    },
  },
};
