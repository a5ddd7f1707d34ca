import type { Messages } from '../messages';

export const tiers: Messages['tiers'] = {
  pointsWord: 'pontos',
  list: {
    title: 'Níveis VIP',
    new: 'Novo nível',
    intro:
      'Os membros sobem nestes níveis conforme ganham {points}. Um nível multiplica o que os membros dele ganham e pode dar uma recompensa única quando o membro o alcança pela primeira vez.',
    window: {
      months:
        'O nível de um membro considera os ganhos em {points} dos últimos {months} meses; assim, quem para de comprar desce de nível à medida que ganhos antigos em {points} saem desse período.',
      lifetime: 'O nível de um membro considera tudo o que ele já ganhou em {points}; assim, ninguém desce de nível.',
    },
    settings: 'Configurações de pontos',
    pointsOff: 'Os pontos estão desativados: ninguém ganha {points} nem sobe de nível até você ativá-los.',
    from: 'A partir de {threshold} {points}',
    earns: 'ganha {multiplier}× {points}',
    earnsUsual: 'ganha {points} normalmente',
    entryReward: 'Recompensa ao alcançar: {reward}',
    members: { one: '{count} membro', other: '{count} membros' },
    noEntryReward: 'Sem recompensa ao alcançar',
    goneReward: 'uma recompensa que não existe mais',
    allRecords: 'Todos os níveis como registros',
    empty: {
      heading: 'Recompense seus melhores clientes com níveis VIP',
      body: 'Membros que ganham mais {points} alcançam níveis mais altos, ganham mais rápido neles e recebem uma recompensa ao chegar, como Prata e Ouro.',
      action: 'Criar o primeiro nível',
    },
  },
  onPointsPage: {
    title: 'Níveis VIP',
    body: 'Membros que ganham mais pontos alcançam níveis que multiplicam o que eles ganham e dão uma recompensa ao chegar.',
    action: 'Editar níveis VIP',
  },
  editor: {
    newTitle: 'Novo nível',
    deleteMembers: {
      one: '1 membro está neste nível agora: ele ficará sem nível até que os próximos pontos dele, ou a verificação diária, o coloquem em outro.',
      other:
        '{count} membros estão neste nível agora: eles ficarão sem nível até que os próximos pontos deles, ou a verificação diária, os coloquem em outro.',
    },
    sections: { tier: 'Nível', perks: 'Benefícios', shopper: 'O que os clientes veem' },
    name: { label: 'Nome', help: 'Os clientes o veem no widget e na conta deles, por exemplo, Ouro.' },
    threshold: {
      label: '{points} para alcançar',
      help: 'Os membros alcançam este nível quando o que ganharam em {points} no período dos níveis chega a este número. 0: todos os membros começam aqui.',
      taken: '{tier} também começa neste número: dê a cada nível ativo um número próprio.',
    },
    multiplier: {
      label: 'Multiplicador de pontos',
      help: 'O que os membros deste nível ganham em {points} é multiplicado por este número, de 1 a 10, por exemplo, 1,5 (arredondado para baixo).',
      oneDecimal: 'O campo {label} pode ter no máximo uma casa decimal, por exemplo, 1,5.',
    },
    entryReward: {
      label: 'Recompensa ao alcançar',
      help: 'Dada uma vez por membro, na primeira vez que ele alcança este nível. Um membro que pula um nível recebe apenas a recompensa do nível em que chega.',
      none: 'Sem recompensa',
    },
    status: { help: 'Apenas níveis ativos têm membros e aparecem para os clientes.' },
    description: {
      label: 'O que os membros deste nível recebem',
      help: 'Os clientes leem isto ao lado do nível, por exemplo, “Frete grátis em todos os pedidos”.',
    },
  },
};
