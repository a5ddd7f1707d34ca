// `start:web`: the Remix server as remix-serve runs it (compressed answers, the build's assets
// cached for a year, public files for an hour), with one difference: its access log leaves query
// strings out. Here they carry credentials: the admin's `id_token` and the app proxy's signed query.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@remix-run/express';
import { installGlobals } from '@remix-run/node';
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
app.all('*', createRequestHandler({ build, mode: process.env.NODE_ENV }));

const port = Number(process.env.PORT) || 3000;
const listening = () => console.log(`[serve] http://localhost:${port}`);
if (process.env.HOST) app.listen(port, process.env.HOST, listening);
else app.listen(port, listening);
