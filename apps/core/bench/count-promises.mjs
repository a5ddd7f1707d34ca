/*
 * Counts the promises a service process makes per HTTP request it answers, from its first request
 * on (start-up's module loading left out), and prints the figure to stderr when the process exits.
 * Load it into the service a benchmark starts:
 *   BENCH_SERVICE_NODE_OPTIONS="--import ./bench/count-promises.mjs" node --import tsx bench/ingest.ts
 * With tracing on, Node 20's AsyncLocalStorage runs hooks for every promise, so this count is what
 * tracing's context propagation costs a request in proportion to. The hook itself slows the process:
 * read the count, not the run's other figures.
 */
import { createHook } from 'node:async_hooks';
import http from 'node:http';

let counting = false;
let promises = 0;
let requests = 0;

createHook({
  init(_id, type) {
    if (counting && type === 'PROMISE') promises++;
  },
}).enable();

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...rest) {
  if (event === 'request') {
    counting = true;
    requests++;
  }
  return emit.call(this, event, ...rest);
};

process.on('exit', () => {
  if (requests)
    process.stderr.write(
      `count-promises: ${promises} promises over ${requests} requests, ${(promises / requests).toFixed(1)} per request\n`,
    );
});
