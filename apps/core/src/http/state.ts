import type { Identity } from '../auth/authenticate.js';
import type { Resource } from '../records/resource.js';

/*
 * What the middleware puts on `ctx.state` for the handlers after it, typed for every Koa context of
 * the service (Koa's own `DefaultState` declaration merged): the request id (first middleware),
 * the caller and its body (`authenticate`) and a record route's resource (its `resolve`).
 */
declare module 'koa' {
  interface DefaultState {
    requestId: string;
    identity: Identity;
    resource: Resource;
    /** The request's body, received before its account's turn (`receiveBody`, http/body.ts). */
    receivedBody?: Buffer;
  }
}
