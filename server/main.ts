/**
 * The entry that listens (`npm start`, `npm run serve`): the product's start-up (server/start-server.ts) from the
 * environment, with the demo content and nothing else.
 */
// First: the OpenTelemetry SDK, when configured, must patch express, pg and http before anything loads them.
import './observability/start-tracing';
import { withDemo } from './demo';
import { startServer } from './start-server';

startServer(process.env, withDemo()).catch((error: unknown) => {
  process.stderr.write(`The server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
