import type { Messages } from '../messages';

export const common: Messages['common'] = {
  nav: {
    dashboard: 'Painel',
    streaks: 'Sequências',
    challenges: 'Desafios',
    missions: 'Missões',
    leaderboards: 'Rankings',
    rewards: 'Recompensas',
    members: 'Membros',
    points: 'Pontos',
    tiers: 'Níveis VIP',
    widget: 'Widget',
    webhooks: 'Webhooks',
    notifications: 'Notificações',
    dataRequests: 'Solicitações de dados',
  },
  save: 'Salvar',
  cancel: 'Cancelar',
  discard: 'Descartar',
  delete: 'Excluir',
  create: 'Criar',
  saved: 'Salvo',
  created: 'Criado',
  deleted: 'Excluído',
  confirmDelete: {
    title: 'Excluir {name}?',
    body: 'Essa ação não pode ser desfeita.',
  },
  show: 'Mostrar',
  actions: 'Ações',
  from: 'De',
  to: 'Até',
  unavailable: {
    title: 'O serviço de fidelidade não respondeu',
    body: 'Não foi possível carregar isto agora. Nada do que você configurou foi alterado; tente novamente em um minuto.',
    action: 'Tentar novamente',
  },
  back: 'Voltar',
  notFound: {
    title: 'Não encontrado',
    body: 'Esta página não existe, ou o que ela mostrava foi excluído.',
    action: 'Ir para o painel',
  },
  refused: {
    title: 'Esta página não pode fazer isso',
    body: 'O endereço foi acessado de uma forma que ele não aceita. Abra-o pela navegação do app.',
  },
  failed: {
    title: 'Algo deu errado',
    body: 'Não foi possível exibir esta página. Tente novamente em um minuto.',
  },
};
