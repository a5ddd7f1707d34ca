import type { Messages } from '../messages';

// Flow's action and trigger names in the recipes, and the app's name in Flow (Loyalty), stay in English: Shopify Flow shows them so.
export const onboarding: Messages['onboarding'] = {
  title: 'Lanza tu programa de fidelidad',
  progress: '{done} de {total} pasos completados',
  show: 'Mostrar paso',
  hide: 'Ocultar lista de configuración',
  reopen: 'Mostrar lista de configuración',
  folded: 'Lista de configuración: {done} de {total} pasos completados.',
  done: 'Completado',
  toDo: 'Pendiente',
  markDone: 'Marcar como completado',
  markUndone: 'Marcar como no completado',
  steps: {
    program: {
      title: '1. Elige un programa',
      intro: 'Elige un programa listo para usar: se crea en un solo paso con sus hitos y recompensas. Puedes cambiarlo todo más adelante.',
      choose: 'Elegir',
      chosen: 'Elegido',
      status: 'Cómo iniciarlo',
      live: 'Activo ya: los clientes lo ven y avanzan',
      draft: 'Como borrador: nada cambia en la tienda hasta que lo actives',
      shopifyDiscounts: 'Emitir las recompensas como descuentos de Shopify',
      shopifyDiscountsHelp:
        'Cada recompensa se convierte en un código de descuento de un solo uso en Shopify para ese cliente. Si no, el servicio de fidelidad genera sus propios códigos.',
      language: 'Los textos para los clientes se escriben en el idioma principal de tu tienda si el widget lo tiene; si no, en inglés.',
      create: 'Crear programa',
      created: 'Se creó «{name}» ({status}).',
      failed: 'No se pudo crear el programa: {message}',
      nothingKept: 'No se conservó nada.',
      leftOver: 'Estos registros no se pudieron volver a eliminar: {names}.',
      busy: 'Este programa ya se está creando. Espera un momento y luego revisa tus programas más abajo.',
      open: 'Abrir',
      openTiers: 'Abrir niveles VIP',
      goLive: 'Activar',
      launched: '«{name}» ya está en marcha.',
      yours: 'Tus programas',
      statuses: { live: 'Activo', draft: 'Borrador', paused: 'En pausa' },
      kinds: { streak: 'Racha', challenge: 'Reto', mission: 'Misión', points_setting: 'Puntos' },
      templates: {
        'daily-visit': {
          title: 'Racha de visitas diarias',
          summary: 'Los clientes vuelven cada día durante una semana.',
          creates: [
            'Una racha diaria de 7 días',
            'La visita de un cliente que ha iniciado sesión cuenta automáticamente, una vez al día',
            'Una recompensa a los 3 días (10 % de descuento) y otra a los 7 días (20 % de descuento)',
          ],
        },
        'weekly-freezes': {
          title: 'Racha semanal con congelaciones',
          summary: 'Un pedido por semana, durante todo el tiempo que quieran.',
          creates: [
            'Una racha semanal sin fin: cada pedido pagado cuenta para su semana',
            'Hasta 2 congelaciones, una ganada cada 4 semanas, y cada una cubre una semana perdida',
            'Una recompensa a las 4 semanas (10 % de descuento) y otra a las 12 semanas (25 % de descuento), retenidas 14 días por las devoluciones',
          ],
        },
        'monthly-spend': {
          title: 'Reto de gasto mensual',
          summary: 'Lo que los pedidos pagados gastan en productos se suma cada mes natural.',
          creates: [
            'Un reto mensual que suma los montos de productos de los pedidos pagados hasta {target}; los reembolsos restan lo suyo',
            'Una recompensa al llegar a {half} ({halfOff} de descuento) y otra al llegar a {target} ({fullOff} de descuento), retenidas 14 días por las devoluciones',
            'Una clasificación de quienes más gastan en el mes',
          ],
        },
        'welcome-mission': {
          title: 'Misión de bienvenida',
          summary: 'Los dos primeros pasos de un cliente nuevo.',
          creates: [
            'Tareas: crear una cuenta y pagar un primer pedido, ambas contadas automáticamente',
            'Una recompensa de bienvenida del 15 % cuando ambas estén hechas, retenida 14 días por las devoluciones',
          ],
        },
        'points-tiers': {
          title: 'Puntos y niveles',
          summary: 'Los clientes acumulan puntos con cada pedido y los gastan en recompensas.',
          creates: [
            'Puntos activados: 1 punto por cada unidad de tu moneda gastada en productos, 100 puntos por registrarse y 100 en el cumpleaños',
            'Recomendaciones: 500 puntos para el cliente cuyo enlace trae a un cliente nuevo, y 250 para ese cliente en su primer pedido',
            'Recompensas para canjear: {pointsOff} de descuento por 500 puntos, 10 % de descuento por 1.000 puntos',
            'Niveles según los puntos ganados en 12 meses: Plata desde 500 (puntos ×1,2), Oro desde 1.500 (puntos ×1,5)',
          ],
        },
      },
    },
    embed: {
      title: '2. Muéstralo en tu tienda',
      intro:
        'Activa la incrustación de aplicación «Loyalty widget» en tu tema publicado: el editor de temas se abre en una pestaña nueva con ella ya activada.',
      openEditor: 'Activar el widget en el editor de temas',
      then: 'Después, selecciona Guardar en el editor de temas. Este paso se marca solo cuando vuelvas a esta pestaña.',
      missingRecords: 'El widget necesita un botón, un tema y unos textos activos.',
      createRecords: 'Crearlos',
      recordsCreated: 'El botón, el tema y los textos del widget están listos.',
      ok: 'El widget está activado en tu tema publicado «{theme}».',
      reasons: {
        unreadable: 'No se pudo leer tu tema publicado: {detail}',
        no_main_theme: 'Tu tienda no tiene ningún tema publicado.',
        not_added: 'El widget aún no está activado en tu tema publicado.',
        disabled: 'El widget está desactivado en tu tema publicado «{theme}».',
      },
    },
    automate: {
      title: '3. Automatízalo',
      intro:
        'Los pedidos pagados, los reembolsos, las cancelaciones, los registros y las visitas ya cuentan: las reglas de cada programa, en su editor, indican qué lo alimenta. Shopify Flow sirve para todo lo demás: las acciones envían otra actividad y los desencadenadores inician flujos de trabajo.',
      actions: 'Acciones de Flow (envían actividad)',
      triggers: 'Desencadenadores de Flow (reaccionan al progreso)',
      recipeOther: {
        title: 'Receta: contar otra cosa, como una primera reseña',
        steps: [
          'En el editor de tu misión, agrega una tarea con «Otra cosa» como actividad y el ID de actividad first_review.',
          'En Shopify Flow, crea un flujo de trabajo con el desencadenador que quieras contar, como «Review created» de tu aplicación de reseñas.',
          'Agrega la acción «Execute mission» (Loyalty). Customer: el cliente del desencadenador. Mission: {mission}. Activity ID: first_review.',
          'Activa el flujo de trabajo. Un flujo de trabajo que envía pedidos necesita la clave de idempotencia order:{{order.legacyResourceId}}, para que un pedido que la aplicación ya contó no cuente dos veces.',
        ],
      },
      recipeTag: {
        title: 'Receta: hito alcanzado → etiquetar al cliente',
        steps: [
          'Crea un flujo de trabajo con el desencadenador «Streak milestone reached» (Loyalty).',
          'Agrega la acción «Agregar etiquetas de cliente».',
          'Etiquetas: loyalty-{{milestone_name}}, o una etiqueta fija como loyalty-regular.',
          'Activa el flujo de trabajo. Usa la etiqueta en segmentos, campañas de correo electrónico o descuentos.',
        ],
      },
      yourMission: 'el nombre de tu misión (crea primero la misión de bienvenida)',
    },
    preview: {
      title: '4. Míralo como un cliente',
      intro: 'El widget real con tus programas activos, tal como lo ve un visitante y tal como lo ve un miembro que ha iniciado sesión.',
      guest: 'Vista previa como visitante',
      member: 'Vista previa como miembro',
      memberNote: 'La vista previa como miembro inicia sesión con un miembro de prueba («{externalId}») que aún no tiene progreso.',
      needsIds: 'Crea el botón, el tema y los textos del widget (paso 2) para ver su vista previa.',
      frameTitle: 'Vista previa del widget',
      more: 'Más en la página Widget',
    },
  },
};
