import type { Messages } from '../messages';

export const help: Messages['help'] = {
  title: 'Ajuda',
  footer: 'Saiba mais sobre {topic}',
  footerGeneral: 'Saiba mais na ajuda',
  topics: {
    setup: {
      title: 'Primeiros passos',
      body: 'O guia de configuração no painel ajuda você a criar seu primeiro programa, ativar o widget de fidelidade no seu tema e verificar se os clientes o veem.',
    },
    programs: {
      title: 'Sequências, desafios e missões',
      body: 'Uma sequência recompensa os membros por voltarem período após período; um desafio, por atingirem uma meta dentro de um período; uma missão, por concluírem uma lista de tarefas. Cada um pode ter marcos que dão recompensas pelo caminho.',
    },
    points: {
      title: 'Pontos e níveis VIP',
      body: 'Os membros ganham pontos com pedidos, ao criar uma conta, ao assinar sua newsletter, no aniversário, ao seguir sua loja nas redes sociais, ao indicar amigos e em marcos, e os trocam pelas recompensas às quais você atribui um custo em pontos. Os níveis VIP acompanham os pontos que um membro ganhou no período dos níveis: cada nível pode multiplicar o que os membros dele ganham e dar uma recompensa a quem entra nele. Se você está vindo de outro app de fidelidade, traga os saldos dos seus clientes com um arquivo CSV na página Pontos.',
    },
    rewards: {
      title: 'Recompensas',
      body: 'Uma recompensa é o que um membro recebe por um marco ou por concluir um programa: um desconto da Shopify, um código dentre os que você envia ou os que o app gera, ou crédito na loja.',
    },
    earnings: {
      title: 'O que seu programa rende',
      body: 'O painel compara as vendas dos membros no seu programa com as dos membros mantidos fora dele, para você ver a receita que o programa acrescenta, e não vendas que aconteceriam de qualquer forma.',
    },
    leaderboards: {
      title: 'Rankings',
      body: 'Um ranking classifica os membros de um programa pela sequência atual ou pela maior sequência, pelo progresso em um ciclo de desafio ou por quantas vezes concluíram uma missão. Os clientes o veem como uma aba no widget, com o nome que você escolher.',
    },
    members: {
      title: 'Membros',
      body: 'Todo cliente que participa é um membro. A página de um membro mostra o progresso, as recompensas e os códigos dele, e tem um link para o cliente na Shopify.',
    },
    notifications: {
      title: 'Notificações',
      body: 'Uma regra de notificação envia uma mensagem quando algo acontece no seu programa, como um marco alcançado. Escolha os momentos, a forma de envio e a mensagem; a prévia mostra a mensagem com dados de exemplo.',
    },
    emails: {
      title: 'Modelos de e-mail',
      body: 'Um modelo de e-mail contém o assunto e a mensagem. Insira detalhes como o nome do membro a partir da lista ao lado da mensagem; eles são preenchidos para cada membro quando o e-mail é enviado.',
    },
    widget: {
      title: 'Widget e identidade visual',
      body: 'O widget é a janela de fidelidade que os clientes abrem por um botão na sua loja. A identidade visual define as cores dele, a posição do botão e os textos; a prévia mostra o widget real enquanto você edita.',
    },
    webhooks: {
      title: 'Webhooks',
      body: 'Os webhooks enviam os eventos do seu programa para outro sistema que você usa, por exemplo, um CRM.',
    },
    dataRequests: {
      title: 'Solicitações de dados',
      body: 'Quando um cliente pede os dados dele ou a exclusão deles, a Shopify avisa o app. Esta página lista essas solicitações e o que o app fez.',
    },
    advanced: {
      title: 'Todos os campos',
      body: 'O menu Avançado de cada editor abre todos os campos que o serviço de fidelidade guarda para um registro. Raramente é necessário; os editores cobrem o que os clientes veem.',
    },
  },
};
