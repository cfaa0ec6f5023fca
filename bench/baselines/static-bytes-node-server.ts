/**
 * Baseline: bare `node:http` sending fixed bytes, read once from BODY_FILE at start: the platform's limit for an
 * answer of those bytes (no framework, no router, no middleware). Same environment and headers as the bare Express
 * route (static-bytes-server.ts), so the two baselines differ by Express only.
 *
 * Env: PORT, HOST, BODY_FILE, ROUTE_PATH (e.g. `/slots`), CONTENT_TYPE, ETAG, CACHE_CONTROL.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { requiredEnv } from './required-env';

const body = readFileSync(requiredEnv('BODY_FILE'));
const routePath = requiredEnv('ROUTE_PATH');
const headers: Record<string, string | number> = {
  'Content-Type': process.env.CONTENT_TYPE ?? 'application/json; charset=utf-8',
  'Content-Length': body.length,
};
if (process.env.ETAG) headers.ETag = process.env.ETAG;
if (process.env.CACHE_CONTROL) headers['Cache-Control'] = process.env.CACHE_CONTROL;
const READY = Buffer.from('{"status":"ok"}');

const server = http.createServer((req, res) => {
  if (req.url === routePath) {
    res.writeHead(200, headers).end(body);
  } else if (req.url === '/readyz') {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': READY.length });
    res.end(READY);
  } else {
    res.writeHead(404).end();
  }
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
