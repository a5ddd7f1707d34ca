import type { Messages } from '../messages';

export const health: Messages['health'] = {
  title: 'Saúde dos programas',
  period: '{range} em comparação com {previous} ({timezone})',
  columns: { program: 'Programa', active: 'Membros ativos', completions: 'Conclusões', rewards: 'Recompensas emitidas' },
  kinds: { streak: 'Sequência', challenge: 'Desafio', mission: 'Missão' },
  // Shown after the kind ("Sequência · por dia"): no adjective agrees with both genders.
  periods: { daily: 'por dia', weekly: 'por semana', monthly: 'por mês' },
  previous: 'período anterior: {value}',
  up: 'alta de {percent}%',
  down: 'queda de {percent}%',
  same: 'sem alteração',
  new: 'novo',
  chartOf: 'Membros ativos por dia em',
  activePerDay: '{name}: membros ativos por dia',
  emptyTitle: 'Ainda não há sequências, desafios ou missões ativos',
  emptyBody:
    'Quando você ativar uma sequência, um desafio ou uma missão, esta seção mostra quantos membros participam, concluem e ganham recompensas.',
  create: 'Criar uma sequência',
};
