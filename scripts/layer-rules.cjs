/**
 * dependency-cruiser rules from an ordered list of layers, top first (each `[name, paths]`, a path
 * ending in `/` naming a folder): no import cycle (type-only imports included), no import from a
 * layer above, and every module under `root` placed in a layer. The core and the Shopify app both
 * write their order with it.
 */
const escape = (p) => p.replace(/[.$]/g, '\\$&');
const pattern = (paths) => `^(${paths.map((p) => (p.endsWith('/') ? escape(p) : `${escape(p)}$`)).join('|')})`;

function layerRules(layers, root) {
  const upward = layers.slice(1).map(([name, paths], i) => ({
    name: `${name}-imports-upward`,
    comment: `${name} may not import from a layer above it (${layers
      .slice(0, i + 1)
      .map(([n]) => n)
      .join(', ')})`,
    severity: 'error',
    from: { path: pattern(paths) },
    to: { path: pattern(layers.slice(0, i + 1).flatMap(([, p]) => p)) },
  }));
  return [
    {
      name: 'no-circular',
      comment: 'Cycles come from a constant or type in the wrong place: move it to the lowest layer that needs it.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'layer-unplaced',
      comment: `Every module of ${root} has a place in the layers.`,
      severity: 'error',
      from: { path: `^${escape(root)}`, pathNot: pattern(layers.flatMap(([, p]) => p)) },
      to: {},
    },
    ...upward,
  ];
}

module.exports = { layerRules };
