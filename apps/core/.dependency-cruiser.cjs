const { layerRules } = require('../../scripts/layer-rules.cjs');

/**
 * The core's layers, top first (README, "Layers"). A module may import from its own layer and the
 * layers below it, never from one above; no import cycle is allowed, type-only imports included.
 * Every source file must belong to a layer, so a new folder is placed here before it is used.
 */
const LAYERS = [
  ['entry', ['src/cli.ts', 'src/v8-flags.ts', 'src/server.ts']],
  ['demo', ['src/demo/']],
  ['http', ['src/http/']],
  ['scheduler', ['src/scheduler/']],
  ['retention', ['src/retention/']],
  ['services', ['src/services.ts']],
  ['tenancy', ['src/tenancy.ts']],
  ['resources', ['src/resources/']],
  ['notifications', ['src/notifications/']],
  ['webhooks', ['src/webhooks/']],
  ['uploads', ['src/uploads/']],
  ['templates', ['src/templates/']],
  ['engine', ['src/engine/']],
  ['schema', ['src/schema/']],
  ['records', ['src/records/']],
  ['events', ['src/events/']],
  ['auth', ['src/auth/']],
  ['db', ['src/db/']],
  ['observability', ['src/observability/']],
  [
    'base',
    [
      'src/config.ts',
      'src/errors.ts',
      'src/formats.ts',
      'src/concurrency.ts',
      'src/rate-limit.ts',
      'src/rate-limit.test.ts',
      'src/concurrency.test.ts',
      'src/config.test.ts',
    ],
  ],
];

module.exports = {
  forbidden: [...layerRules(LAYERS, 'src/')],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
