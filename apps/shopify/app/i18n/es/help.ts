import type { Messages } from '../messages';

export const help: Messages['help'] = {
  title: 'Ayuda',
  footer: 'Más información sobre {topic}',
  footerGeneral: 'Más información en la ayuda',
  topics: {
    setup: {
      title: 'Primeros pasos',
      body: 'La guía de configuración del panel te acompaña para crear tu primer programa, activar el widget de fidelidad en tu tema y comprobar que los clientes lo ven.',
    },
    programs: {
      title: 'Rachas, retos y misiones',
      body: 'Una racha recompensa a los miembros por volver periodo tras periodo; un reto, por alcanzar un objetivo dentro de un periodo; una misión, por completar una lista de tareas. Cada uno puede tener hitos que dan recompensas por el camino.',
    },
    points: {
      title: 'Puntos y niveles VIP',
      body: 'Los miembros ganan puntos con sus pedidos, al registrarse, al suscribirse a tu boletín, en su cumpleaños, al seguir tu tienda en redes sociales, al recomendar a amigos y al alcanzar hitos, y los gastan en las recompensas a las que asignas un costo en puntos. Los niveles VIP siguen los puntos que un miembro ganó en el periodo de los niveles: cada nivel puede multiplicar lo que ganan sus miembros y dar una recompensa al entrar en él. Si vienes de otra aplicación de fidelidad, puedes traer los saldos de tus clientes con un archivo CSV en la página Puntos.',
    },
    rewards: {
      title: 'Recompensas',
      body: 'Una recompensa es lo que recibe un miembro por un hito o por completar un programa: un descuento de Shopify, un código de los que cargas o de los que genera la aplicación, o crédito de tienda.',
    },
    earnings: {
      title: 'Lo que genera tu programa',
      body: 'El panel compara las ventas de los miembros de tu programa con las de los miembros de un grupo de control que queda fuera de él, para que veas los ingresos que aporta tu programa y no las ventas que se habrían producido de todos modos.',
    },
    leaderboards: {
      title: 'Clasificaciones',
      body: 'Una clasificación ordena a los miembros de un programa según su racha actual o su mejor racha, su progreso en un periodo de un reto o cuántas veces completaron una misión. Los clientes la ven como una pestaña del widget, con el nombre que elijas.',
    },
    members: {
      title: 'Miembros',
      body: 'Cada cliente que participa es un miembro. La página de un miembro muestra su progreso, sus recompensas y códigos, y un enlace al cliente en Shopify.',
    },
    notifications: {
      title: 'Notificaciones',
      body: 'Una regla de notificación envía un mensaje cuando ocurre algo en tu programa, como alcanzar un hito. Elige los momentos, el canal de envío y el mensaje; la vista previa lo muestra con datos de ejemplo.',
    },
    emails: {
      title: 'Plantillas de correo electrónico',
      body: 'Una plantilla de correo electrónico contiene el asunto y el mensaje. Inserta datos como el nombre del miembro desde la lista junto al mensaje; se completan para cada miembro al enviar el correo.',
    },
    widget: {
      title: 'Widget e imagen de marca',
      body: 'El widget es el panel de fidelidad que los clientes abren desde un botón en tu tienda. La imagen de marca define sus colores, la posición del botón y sus textos; la vista previa muestra el widget real mientras editas.',
    },
    webhooks: {
      title: 'Webhooks',
      body: 'Los webhooks envían los eventos de tu programa a otro sistema que uses, por ejemplo, un CRM.',
    },
    dataRequests: {
      title: 'Solicitudes de datos',
      body: 'Cuando un cliente solicita sus datos o que se borren, Shopify avisa a la aplicación. Esta página enumera esas solicitudes y lo que hizo la aplicación.',
    },
    advanced: {
      title: 'Todos los campos',
      body: 'El menú Avanzado de cada editor abre todos los campos que el servicio de fidelidad guarda para un registro. Rara vez lo necesitarás; los editores cubren lo que ven los clientes.',
    },
  },
};
