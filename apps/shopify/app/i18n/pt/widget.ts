import type { Messages } from '../messages';

export const widget: Messages['widget'] = {
  title: 'Widget',
  new: 'Novo',
  preview: 'Prévia ao vivo',
  previewHelp:
    'A loja virtual mostra o widget flutuante, o tema e o modelo ativos mais antigos (marcados como “Na sua loja”): o próprio app os entrega à incorporação de app “Loyalty widget”. Veja a prévia de qualquer um deles aqui.',
  onStore: 'Na sua loja',
  show: 'Mostrar prévia',
  incomplete: 'Crie um widget flutuante, um tema e um modelo para ver a prévia do widget.',
  frameTitle: 'Prévia do widget',
  frameNote: 'Prévia da loja virtual (visão de visitante)',
  page: 'Uma página de fidelidade',
  pageHelp:
    'Mostre todo o seu programa em uma página da sua loja, como uma página “Recompensas”: as formas de ganhar, as recompensas para resgatar e os níveis e, para um cliente conectado, os pontos dele e um botão Resgatar. É preciso ativar a incorporação de app “Loyalty widget”.',
  addPage: 'Adicionar a uma página no editor de temas',
  product: 'Pontos nas páginas de produto e de carrinho',
  productHelp:
    'Abaixo do preço de um produto, o que a compra rende (“Ganhe 39 pontos com esta compra”), para a variante e a quantidade escolhidas; na página do carrinho, o que o pedido rende, com descontos e pontos por pedido. Ambos contam o multiplicador do nível de um cliente conectado e um evento de pontos bônus em andamento, aparecem enquanto os pontos estão ativados e os pedidos rendem pontos, não precisam da incorporação de app e não prometem nada aos clientes que você exclui por tag.',
  addProduct: 'Adicionar às páginas de produto no editor de temas',
  addCart: 'Adicionar à página do carrinho no editor de temas',
  reminder: 'Um lembrete ao lado do botão de fidelidade',
  reminderHelp:
    'Uma vez por visita, alguns segundos depois de abrir uma página, o widget lembra um visitante do que ele ganha ao criar uma conta, e um membro de qual recompensa os pontos dele já cobrem ou de quantos faltam para a mais próxima; ao ser clicado, abre os pontos dele. Fica ativo, a menos que você desmarque “Lembrar os clientes dos pontos” na incorporação de app “Loyalty widget”.',
  reminderSettings: 'Abrir a incorporação de app no editor de temas',
};
