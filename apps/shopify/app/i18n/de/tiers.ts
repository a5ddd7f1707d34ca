import type { Messages } from '../messages';

export const tiers: Messages['tiers'] = {
  pointsWord: 'Punkte',
  list: {
    title: 'VIP-Stufen',
    new: 'Neue Stufe',
    intro:
      'Je mehr {points} Mitglieder sammeln, desto höher steigen sie in diesen Stufen auf. Eine Stufe vervielfacht, was ihre Mitglieder sammeln, und kann einmal eine Prämie geben, wenn sie sie zum ersten Mal erreichen.',
    window: {
      months:
        'Für die Stufe eines Mitglieds zählen die {points} der letzten {months} Monate: Wer nicht mehr kauft, steigt ab, sobald alte {points} aus diesem Zeitraum fallen.',
      lifetime: 'Für die Stufe eines Mitglieds zählen alle {points}, die es je gesammelt hat: Niemand steigt ab.',
    },
    settings: 'Punkte-Einstellungen',
    pointsOff: 'Punkte sind ausgeschaltet: Niemand sammelt {points} oder steigt in eine Stufe auf, bis du sie einschaltest.',
    from: '{points}: ab {threshold}',
    earns: 'sammelt {multiplier}× {points}',
    earnsUsual: 'sammelt die üblichen {points}',
    entryReward: 'Prämie beim Erreichen: {reward}',
    members: { one: '{count} Mitglied', other: '{count} Mitglieder' },
    noEntryReward: 'Keine Prämie beim Erreichen',
    goneReward: 'eine Prämie, die es nicht mehr gibt',
    allRecords: 'Alle Stufen als Einträge',
    empty: {
      heading: 'Belohne deine besten Kunden mit VIP-Stufen',
      body: 'Mitglieder, die mehr {points} sammeln, erreichen höhere Stufen, sammeln dort schneller und bekommen beim Erreichen eine Prämie, etwa Silber und Gold.',
      action: 'Erste Stufe erstellen',
    },
  },
  onPointsPage: {
    title: 'VIP-Stufen',
    body: 'Mitglieder, die mehr Punkte sammeln, erreichen Stufen, die vervielfachen, was sie sammeln, und beim Erreichen eine Prämie geben.',
    action: 'VIP-Stufen bearbeiten',
  },
  editor: {
    newTitle: 'Neue Stufe',
    deleteMembers: {
      one: '1 Mitglied ist gerade in dieser Stufe: Es ist in keiner, bis seine nächsten Punkte oder der tägliche Lauf es einer anderen zuordnen.',
      other:
        '{count} Mitglieder sind gerade in dieser Stufe: Sie sind in keiner, bis ihre nächsten Punkte oder der tägliche Lauf sie einer anderen zuordnen.',
    },
    sections: { tier: 'Stufe', perks: 'Vorteile', shopper: 'Was Kunden sehen' },
    name: { label: 'Name', help: 'Kunden sehen ihn im Widget und in ihrem Konto, z. B. Gold.' },
    threshold: {
      label: '{points} bis zur Stufe',
      help: 'Mitglieder erreichen diese Stufe, sobald die {points}, die sie im Zeitraum der Stufen gesammelt haben, diese Zahl erreichen. 0: Jedes Mitglied beginnt hier.',
      taken: '{tier} beginnt auch bei dieser Zahl: Gib jeder aktiven Stufe eine eigene.',
    },
    multiplier: {
      label: 'Punkte-Multiplikator',
      help: 'Mitglieder dieser Stufe sammeln so viel mal die {points}, von 1 bis 10, z. B. 1,5 (abgerundet).',
      oneDecimal: '{label} darf höchstens eine Nachkommastelle haben, z. B. 1,5.',
    },
    entryReward: {
      label: 'Prämie beim Erreichen',
      help: 'Einmal pro Mitglied, wenn es diese Stufe zum ersten Mal erreicht. Wer eine Stufe überspringt, bekommt nur die Prämie der Stufe, in der es landet.',
      none: 'Keine Prämie',
    },
    status: { help: 'Nur aktive Stufen haben Mitglieder und werden Kunden gezeigt.' },
    description: {
      label: 'Was Mitglieder dieser Stufe bekommen',
      help: 'Kunden lesen es neben der Stufe, z. B. „Kostenloser Versand bei jeder Bestellung“.',
    },
  },
};
