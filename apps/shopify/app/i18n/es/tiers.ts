import type { Messages } from '../messages';

// {points} is the shop's own name for points ("puntos", "estrellas"...): the sentences avoid an article
// or adjective that would have to agree with it.
export const tiers: Messages['tiers'] = {
  pointsWord: 'puntos',
  list: {
    title: 'Niveles VIP',
    new: 'Nuevo nivel',
    intro:
      'Los miembros suben por estos niveles según la cantidad de {points} que ganan. Un nivel multiplica lo que ganan sus miembros y puede dar una recompensa una sola vez, la primera vez que lo alcanzan.',
    window: {
      months:
        'El nivel de un miembro tiene en cuenta la cantidad de {points} ganada en los últimos {months} meses, así que quien deja de comprar baja de nivel a medida que sus {points} de hace más tiempo quedan fuera de ese periodo.',
      lifetime: 'El nivel de un miembro tiene en cuenta la cantidad total de {points} que ha ganado, así que nadie baja de nivel.',
    },
    settings: 'Configuración de puntos',
    pointsOff: 'Los puntos están desactivados: nadie gana {points} ni sube de nivel hasta que los actives.',
    from: 'Desde {threshold} {points}',
    earns: 'gana {multiplier}× {points}',
    earnsUsual: 'gana {points} al ritmo habitual',
    entryReward: 'Recompensa al alcanzarlo: {reward}',
    members: { one: '{count} miembro', other: '{count} miembros' },
    noEntryReward: 'Sin recompensa al alcanzarlo',
    goneReward: 'una recompensa que ya no existe',
    allRecords: 'Todos los niveles como registros',
    empty: {
      heading: 'Recompensa a tus mejores clientes con niveles VIP',
      body: 'Los miembros que ganan más {points} alcanzan niveles superiores, en los que ganan más rápido, y reciben una recompensa al llegar, como Plata y Oro.',
      action: 'Crear el primer nivel',
    },
  },
  onPointsPage: {
    title: 'Niveles VIP',
    body: 'Los miembros que ganan más puntos alcanzan niveles que multiplican lo que ganan y dan una recompensa al llegar.',
    action: 'Editar niveles VIP',
  },
  editor: {
    newTitle: 'Nuevo nivel',
    deleteMembers: {
      one: 'Ahora hay 1 miembro en este nivel: no estará en ninguno hasta que sus próximos puntos, o la revisión diaria, lo coloquen en otro.',
      other:
        'Ahora hay {count} miembros en este nivel: no estarán en ninguno hasta que sus próximos puntos, o la revisión diaria, los coloquen en otro.',
    },
    sections: { tier: 'Nivel', perks: 'Ventajas', shopper: 'Lo que ven los clientes' },
    name: { label: 'Nombre', help: 'Los clientes lo ven en el widget y en su cuenta, p. ej., Oro.' },
    threshold: {
      label: '{points} para alcanzarlo',
      help: 'Los miembros alcanzan este nivel cuando la cantidad de {points} que ganaron en el periodo de los niveles llega a este número. 0: todos los miembros empiezan aquí.',
      taken: '{tier} también empieza en este número: da a cada nivel activo un número propio.',
    },
    multiplier: {
      label: 'Multiplicador de puntos',
      help: 'Los miembros de este nivel ganan la cantidad habitual de {points} multiplicada por este número, de 1 a 10, p. ej., 1,5 (redondeando hacia abajo).',
      oneDecimal: 'El campo «{label}» puede tener como máximo un decimal, p. ej., 1,5.',
    },
    entryReward: {
      label: 'Recompensa al alcanzarlo',
      help: 'Se da una vez por miembro, la primera vez que alcanza este nivel. Un miembro que se salta un nivel solo recibe la recompensa del nivel al que llega.',
      none: 'Sin recompensa',
    },
    status: { help: 'Solo los niveles activos tienen miembros y se muestran a los clientes.' },
    description: {
      label: 'Lo que obtienen los miembros de este nivel',
      help: 'Los clientes lo leen junto al nivel, p. ej., «Envío gratis en todos los pedidos».',
    },
  },
};
