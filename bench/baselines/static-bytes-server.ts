/**
 * Baseline: a bare Express route that sends fixed bytes, read once from BODY_FILE at start. The benchmarks give it
 * the very body (and the content headers) the real server answered, so the difference in req/s is what the real
 * server does besides sending those bytes.
 *
 * Env: PORT, HOST, BODY_FILE, ROUTE_PATH (e.g. `/slots`), CONTENT_TYPE, ETAG, CACHE_CONTROL.
 */
import { readFileSync } from 'node:fs';
import express from 'express';
import { requiredEnv } from './required-env';

const body = readFileSync(requiredEnv('BODY_FILE'));
const routePath = requiredEnv('ROUTE_PATH');
const headers: Record<string, string> = {
  'Content-Type': process.env.CONTENT_TYPE ?? 'application/json; charset=utf-8',
};
// A known ETag also keeps Express from hashing the body on every answer, which a bare route would not do either.
if (process.env.ETAG) headers.ETag = process.env.ETAG;
if (process.env.CACHE_CONTROL) headers['Cache-Control'] = process.env.CACHE_CONTROL;

const app = express();
app.get(routePath, (_req, res) => {
  res.set(headers).send(body);
});
app.get('/readyz', (_req, res) => {
  res.json({ status: 'ok' });
});

const port = Number(process.env.PORT ?? 0);
const server = app.listen(port, process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
