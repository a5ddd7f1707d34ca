import type { Messages } from '../messages';

// "Loyalty widget" (the app embed's name) stays in English, as the theme editor shows it.
export const widget: Messages['widget'] = {
  title: 'Widget',
  new: 'Nuevo',
  preview: 'Vista previa en vivo',
  previewHelp:
    'La tienda muestra el widget flotante, el tema y la plantilla activos más antiguos (marcados con «En tu tienda»): la aplicación se los pasa por sí sola a la incrustación de aplicación «Loyalty widget». Aquí puedes ver una vista previa de cualquiera de ellos.',
  onStore: 'En tu tienda',
  show: 'Mostrar vista previa',
  incomplete: 'Crea un widget flotante, un tema y una plantilla para ver una vista previa del widget.',
  frameTitle: 'Vista previa del widget',
  frameNote: 'Vista previa de la tienda (como visitante)',
  page: 'Una página de fidelidad',
  pageHelp:
    'Muestra todo tu programa en una página de tu tienda, como una página «Recompensas»: las formas de ganar puntos, las recompensas que se pueden canjear y los niveles, y, para un cliente que ha iniciado sesión, sus puntos y un botón Canjear. Requiere que la incrustación de aplicación «Loyalty widget» esté activada.',
  addPage: 'Agregar a una página en el editor de temas',
  product: 'Puntos en las páginas de producto y de carrito',
  productHelp:
    'Bajo el precio de un producto, lo que gana su compra (“Gana 39 puntos con esta compra”), para la variante y la cantidad elegidas; en la página del carrito, lo que gana el pedido, con sus descuentos y los puntos por pedido. Ambos cuentan el multiplicador del nivel de un cliente con sesión iniciada y un evento de puntos extra mientras dure, aparecen mientras los puntos están activados y los pedidos los ganan, no necesitan la inserción de app y no prometen nada a los clientes que excluyes por etiqueta.',
  addProduct: 'Agregar a las páginas de producto en el editor de temas',
  addCart: 'Agregar a la página del carrito en el editor de temas',
  reminder: 'Un recordatorio junto al botón',
  reminderHelp:
    'Una vez por visita, unos segundos después de abrir una página, el widget le recuerda a un visitante lo que gana si crea una cuenta, y a un miembro qué recompensa ya cubren sus puntos o cuántos le faltan para la más cercana; al pulsarlo, se abren sus puntos. Está activado salvo que desmarques «Recordar a los clientes sus puntos» en la incrustación de aplicación «Loyalty widget».',
  reminderSettings: 'Abrir la incrustación de aplicación en el editor de temas',
};
