/**
 * The entry that listens (`npm start`, `npm run serve`): the product's start-up (server/start-server.ts) from the
 * environment, with the demo content and nothing else.
 */
// First: the OpenTelemetry SDK, when configured, must patch express, pg, redis, better-sqlite3 and http before
// anything loads them.
import './observability/start-tracing';
import { withDemo } from './demo';
import { refuseStart } from './process/start-refused';
import { startServer } from './start-server';

startServer(process.env, withDemo()).catch(refuseStart);
