import type { Messages } from '../messages';

export const onboarding: Messages['onboarding'] = {
  title: 'Lance seu programa de fidelidade',
  progress: '{done} de {total} etapas concluídas',
  show: 'Mostrar etapa',
  hide: 'Ocultar guia de configuração',
  reopen: 'Mostrar guia de configuração',
  folded: 'Guia de configuração: {done} de {total} etapas concluídas.',
  done: 'Concluída',
  toDo: 'A fazer',
  markDone: 'Marcar como concluída',
  markUndone: 'Marcar como não concluída',
  steps: {
    program: {
      title: '1. Escolha um programa',
      intro: 'Escolha um programa pronto: ele é criado em uma única etapa, com os marcos e as recompensas. Você pode alterar tudo depois.',
      choose: 'Escolher',
      chosen: 'Escolhido',
      status: 'Iniciar',
      live: 'Ativo agora: os clientes o veem e avançam no progresso',
      draft: 'Como rascunho: nada muda na loja até você ativá-lo',
      shopifyDiscounts: 'Emitir recompensas como descontos da Shopify',
      shopifyDiscountsHelp:
        'Cada recompensa vira um código de desconto de uso único na Shopify para aquele cliente. Caso contrário, o serviço de fidelidade gera os próprios códigos.',
      language:
        'Os textos para os clientes são escritos no idioma principal da sua loja quando o widget tem esse idioma; caso contrário, em inglês.',
      create: 'Criar programa',
      created: '“{name}” criado ({status}).',
      failed: 'Não foi possível criar o programa: {message}',
      nothingKept: 'Nada foi mantido.',
      leftOver: 'Não foi possível remover novamente estes registros: {names}.',
      busy: 'Este programa já está sendo criado. Aguarde um momento e veja seus programas abaixo.',
      open: 'Abrir',
      openTiers: 'Abrir níveis VIP',
      goLive: 'Ativar',
      launched: '“{name}” está ativo.',
      yours: 'Seus programas',
      statuses: { live: 'Ativo', draft: 'Rascunho', paused: 'Pausado' },
      kinds: { streak: 'Sequência', challenge: 'Desafio', mission: 'Missão', points_setting: 'Pontos' },
      templates: {
        'daily-visit': {
          title: 'Sequência de visitas diárias',
          summary: 'Os clientes voltam todos os dias durante uma semana.',
          creates: [
            'Uma sequência diária de 7 dias',
            'A visita de um cliente conectado conta automaticamente, uma vez por dia',
            'Uma recompensa aos 3 dias (10% de desconto) e aos 7 dias (20% de desconto)',
          ],
        },
        'weekly-freezes': {
          title: 'Sequência semanal com congelamentos',
          summary: 'Um pedido por semana, pelo tempo que quiserem.',
          creates: [
            'Uma sequência semanal sem fim: cada pedido pago conta para a semana dele',
            'Até 2 congelamentos, um ganho a cada 4 semanas, cada um cobrindo uma semana perdida',
            'Uma recompensa às 4 semanas (10% de desconto) e às 12 semanas (25% de desconto), retida por 14 dias para devoluções',
          ],
        },
        'monthly-spend': {
          title: 'Desafio de compras do mês',
          summary: 'O que os pedidos pagos gastam em produtos se acumula a cada mês do calendário.',
          creates: [
            'Um desafio mensal que soma os valores dos produtos dos pedidos pagos até {target}; os reembolsos descontam o valor reembolsado',
            'Uma recompensa em {half} ({halfOff} de desconto) e em {target} ({fullOff} de desconto), retida por 14 dias para devoluções',
            'Um ranking de quem mais comprou no mês',
          ],
        },
        'welcome-mission': {
          title: 'Missão de boas-vindas',
          summary: 'Os dois primeiros passos de um cliente novo.',
          creates: [
            'Tarefas: criar uma conta e pagar o primeiro pedido, ambas contadas automaticamente',
            'Uma recompensa de boas-vindas de 15% quando as duas forem concluídas, retida por 14 dias para devoluções',
          ],
        },
        'points-tiers': {
          title: 'Pontos e níveis',
          summary: 'Os clientes acumulam pontos a cada pedido e os trocam por recompensas.',
          creates: [
            'Pontos ativados: 1 ponto por unidade da sua moeda gasta em produtos, 100 pontos ao criar uma conta e 100 no aniversário',
            'Indicações: 500 pontos para um cliente cujo link traz um cliente novo, e 250 para esse cliente novo no primeiro pedido',
            'Recompensas para resgatar: {pointsOff} de desconto por 500 pontos, 10% de desconto por 1.000 pontos',
            'Níveis por pontos ganhos em 12 meses: Prata a partir de 500 (pontos ×1,2), Ouro a partir de 1.500 (pontos ×1,5)',
          ],
        },
      },
    },
    embed: {
      title: '2. Mostre na sua loja',
      intro:
        'Ative a incorporação de app “Loyalty widget” no seu tema publicado: o editor de temas abre em uma nova aba com ela já ativada.',
      openEditor: 'Ativar o widget no editor de temas',
      then: 'Depois, selecione Salvar no editor de temas. Esta etapa é marcada automaticamente quando você volta para esta aba.',
      missingRecords: 'O widget precisa de um botão, um tema e textos ativos.',
      createRecords: 'Criar agora',
      recordsCreated: 'O botão, o tema e os textos do widget estão prontos.',
      ok: 'O widget está ativado no seu tema publicado “{theme}”.',
      reasons: {
        unreadable: 'Não foi possível ler seu tema publicado: {detail}',
        no_main_theme: 'Sua loja não tem um tema publicado.',
        not_added: 'O widget ainda não está ativado no seu tema publicado.',
        disabled: 'O widget está desativado no seu tema publicado “{theme}”.',
      },
    },
    automate: {
      title: '3. Automatize',
      intro:
        'Pedidos pagos, reembolsos, cancelamentos, cadastros e visitas já contam: as regras de cada programa, no editor dele, dizem o que o alimenta. O Shopify Flow serve para todo o resto: as ações enviam outras atividades, e os acionadores iniciam fluxos de trabalho.',
      actions: 'Ações do Flow (enviar atividade)',
      triggers: 'Acionadores do Flow (reagir ao progresso)',
      recipeOther: {
        title: 'Receita: contar outra coisa, como uma primeira avaliação',
        steps: [
          'No editor da sua missão, adicione uma tarefa com “Outra coisa” como atividade e o ID de atividade first_review.',
          'No Shopify Flow, crie um fluxo de trabalho com o acionador que você quer contar, como “Avaliação criada” do seu app de avaliações.',
          'Adicione a ação “Execute mission” (Loyalty). Cliente: o cliente do acionador. Mission: {mission}. Activity ID: first_review.',
          'Ative o fluxo de trabalho. Um fluxo de trabalho que envia pedidos precisa do valor order:{{order.legacyResourceId}} no campo Idempotency key, para que um pedido que o app já contou não conte duas vezes.',
        ],
      },
      recipeTag: {
        title: 'Receita: marco alcançado → adicionar tag ao cliente',
        steps: [
          'Crie um fluxo de trabalho com o acionador “Streak milestone reached” (Loyalty).',
          'Adicione a ação “Adicionar tags de cliente”.',
          'Tags: loyalty-{{milestone_name}}, ou uma tag fixa como loyalty-frequente.',
          'Ative o fluxo de trabalho. Use a tag em segmentos, campanhas de e-mail ou descontos.',
        ],
      },
      yourMission: 'o nome da sua missão (crie primeiro a missão de boas-vindas)',
    },
    preview: {
      title: '4. Veja como um cliente',
      intro: 'O widget real com seus programas ativos, como um visitante o vê e como um membro conectado o vê.',
      guest: 'Prévia como visitante',
      member: 'Prévia como membro',
      memberNote: 'A prévia de membro conecta um membro de prévia (“{externalId}”) que ainda não tem progresso.',
      needsIds: 'Crie o botão, o tema e os textos do widget (etapa 2) para ver a prévia.',
      frameTitle: 'Prévia do widget',
      more: 'Mais na página Widget',
    },
  },
};
