/**
 * An OTLP/HTTP endpoint that takes every export and answers as a collector does, keeping nothing, as a process of its
 * own (started by the observability suite on PORT and HOST): the traced servers' cost of sending spans is measured,
 * not a receiver's. In the bench's own process it shared the event loop with autocannon: on the traced side only, the
 * load generator also took thousands of spans a second, which no collector does. `GET /readyz` answers once it
 * listens; `GET /stats` says what it took.
 */
import http from 'node:http';

let exports = 0;
let bytes = 0;

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    const body = req.url === '/stats' ? JSON.stringify({ exports, bytes }) : '{}';
    res.writeHead(req.url === '/stats' || req.url === '/readyz' ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(body);
    return;
  }
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    exports += 1;
    // An empty ExportTraceServiceResponse in the encoding the export came in (OTLP/HTTP JSON or protobuf).
    if (req.headers['content-type'] === 'application/x-protobuf') {
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    } else {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    }
  });
});

server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
