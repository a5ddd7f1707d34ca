// `start:web`: the Remix server as remix-serve runs it (compressed answers, the build's assets
// cached for a year, public files for an hour), with two differences: its access log leaves query
// strings out (here they carry credentials: the admin's `id_token` and the app proxy's signed query),
// and a refusal or an outage Remix would answer 500 is answered as what it is (app/entry.server.tsx's `finalAnswer`).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
// The adapter's own conversions (not in its package's index): its handler, but with the app's last word on the answer.
import { createRemixRequest, sendRemixResponse } from '@remix-run/express/dist/server.js';
import { createRequestHandler, installGlobals } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import morgan from 'morgan';

process.env.NODE_ENV ??= 'production';
const build = await import(pathToFileURL(resolve(process.argv[2] ?? 'build/server/index.js')).href);
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const app = express();
app.disable('x-powered-by');
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: '1y' }));
app.use(express.static('public', { maxAge: '1h' }));
morgan.token('path', (req) => req.originalUrl.split('?')[0]);
app.use(morgan(':method :path :status :res[content-length] - :response-time ms'));
const handle = createRequestHandler(build, process.env.NODE_ENV);

/** Past this much of a body no route read, the connection is closed rather than read on. */
const UNREAD_BODY_MAX = 8 * 1024 * 1024;

/**
 * A body the route answered without reading (a refusal before it, an unsigned visit) stays paused in
 * the adapter's stream, and with it the connection: a client still sending never reads the answer,
 * and the next request on the connection waits behind it. What is left is read and dropped, as Node
 * does with a body no handler reads; a larger one closes the connection.
 */
async function dropUnread(body, socket) {
  let left = UNREAD_BODY_MAX;
  try {
    for await (const chunk of body) {
      left -= chunk.byteLength;
      if (left < 0) return socket.destroy();
    }
  } catch {
    // The client went away: there is nothing left to drop.
  }
}

app.all('*', async (req, res, next) => {
  try {
    const request = createRemixRequest(req, res);
    const response = await handle(request);
    if (!req.complete && request.body && !request.body.locked) void dropUnread(request.body, req.socket);
    await sendRemixResponse(res, await build.entry.module.finalAnswer(request, response));
  } catch (error) {
    next(error);
  }
});

// A path whose escapes decode to no text (`%ff`) fails Express's own matching before Remix sees it:
// the client's mistake, answered in the app's error body, not logged as the server's failure.
app.use((error, req, res, next) => {
  if (!(error instanceof URIError) || res.headersSent) return next(error);
  res
    .status(400)
    .set('cache-control', 'no-store')
    .json({ error: { code: 'bad_path', message: 'The address has an escape (%) that decodes to no text.' } });
});

const port = Number(process.env.PORT) || 3000;
const listening = () => console.log(`[serve] http://localhost:${port}`);
if (process.env.HOST) app.listen(port, process.env.HOST, listening);
else app.listen(port, listening);
