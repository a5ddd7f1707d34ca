import type { Messages } from '../messages';

export const health: Messages['health'] = {
  title: 'Estado de los programas',
  period: '{range} frente a {previous} ({timezone})',
  columns: { program: 'Programa', active: 'Miembros activos', completions: 'Completados', rewards: 'Recompensas emitidas' },
  kinds: { streak: 'Racha', challenge: 'Reto', mission: 'Misión' },
  // Shown as "Racha · cada día": "cada" avoids the gender agreement of "diario/diaria".
  periods: { daily: 'cada día', weekly: 'cada semana', monthly: 'cada mes' },
  previous: 'periodo anterior: {value}',
  up: 'sube un {percent} %',
  down: 'baja un {percent} %',
  same: 'sin cambios',
  new: 'nuevo',
  chartOf: 'Miembros activos por día de',
  activePerDay: '{name}: miembros activos por día',
  emptyTitle: 'Aún no hay rachas, retos ni misiones activos',
  emptyBody:
    'Cuando una racha, un reto o una misión esté activo, aquí verás cuántos miembros participan, lo completan y ganan recompensas.',
  create: 'Crear una racha',
};
