import { setFlagsFromString } from 'node:v8';

/**
 * Imported first by the binary, before any other module allocates. V8's allocation-site
 * pretenuring moves an allocation site's objects straight into the old generation once, at one
 * scavenge, nearly all of them survived. A request's rows are short-lived, but a burst can make
 * them look long-lived, and the decision then sticks. Every row parsed afterwards was allocated as
 * old, its young strings were copied and promoted through the remembered set, and the list route
 * spent a third of its CPU in garbage collection (`bench:records`, see docs/performance.md).
 */
setFlagsFromString('--no-allocation-site-pretenuring');
