/** The VIP tiers page and editor (CONTRACT §19 tiers), in the merchant's words. */
export const tiers = {
  /** What points are called when the shop has no name of its own for them. */
  pointsWord: 'points',
  list: {
    title: 'VIP tiers',
    new: 'New tier',
    intro:
      'Members climb these tiers by the {points} they earn. A tier multiplies what its members earn and can give a reward once, the first time they reach it.',
    window: {
      months:
        'A member’s tier counts the {points} earned in the last {months} months, so members who stop buying move down as old {points} leave that window.',
      lifetime: 'A member’s tier counts all the {points} they ever earned, so nobody moves down.',
    },
    settings: 'Points settings',
    pointsOff: 'Points are off: nobody earns {points} or climbs a tier until you turn them on.',
    from: 'From {threshold} {points}',
    earns: 'earns {multiplier}× {points}',
    earnsUsual: 'earns the usual {points}',
    entryReward: 'Reward on reaching it: {reward}',
    members: { one: '{count} member', other: '{count} members' },
    noEntryReward: 'No reward on reaching it',
    goneReward: 'a reward that no longer exists',
    allRecords: 'All tiers as records',
    empty: {
      heading: 'Reward your best customers with VIP tiers',
      body: 'Members who earn more {points} reach higher tiers, earn faster there and get a reward on arrival, like Silver and Gold.',
      action: 'Create the first tier',
    },
  },
  /** The Points page's way to the tiers. */
  onPointsPage: {
    title: 'VIP tiers',
    body: 'Members who earn more points reach tiers that multiply what they earn and give a reward on arrival.',
    action: 'Edit VIP tiers',
  },
  editor: {
    newTitle: 'New tier',
    deleteMembers: {
      one: '1 member is in this tier now: they will be in none until their next points, or the daily pass, place them in another.',
      other:
        '{count} members are in this tier now: they will be in none until their next points, or the daily pass, place them in another.',
    },
    sections: { tier: 'Tier', perks: 'Perks', shopper: 'What shoppers see' },
    name: { label: 'Name', help: 'Shoppers see it in the widget and their account, e.g. Gold.' },
    threshold: {
      label: '{points} to reach it',
      help: 'Members reach this tier once the {points} they earned in the tier window come to this number. 0: every member starts here.',
      taken: '{tier} starts at this number too: give each live tier a number of its own.',
    },
    multiplier: {
      label: 'Points multiplier',
      help: 'Members of this tier earn this many times the {points}, from 1 to 10, e.g. 1.5 (rounded down).',
      oneDecimal: '{label} can have one decimal at most, e.g. 1.5.',
    },
    entryReward: {
      label: 'Reward on reaching it',
      help: 'Given once per member, the first time they reach this tier. A member who skips a tier gets only the reward of the tier they land in.',
      none: 'No reward',
    },
    status: { help: 'Only live tiers hold members and show to shoppers.' },
    description: {
      label: 'What members of this tier get',
      help: 'Shoppers read it beside the tier, e.g. “Free shipping on every order”.',
    },
  },
};
