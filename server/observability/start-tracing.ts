/**
 * Imported first by every entry that listens (server/main.ts), before anything loads express, pg or http: starts
 * the OpenTelemetry SDK when the environment names an OTLP endpoint (tracing.ts), and does nothing else. A tracing
 * setting it cannot start with (an OTLP protocol it cannot send in) stops the process as any bad setting does.
 */
import { refuseStart } from '../process/start-refused';
import { startTracing } from './tracing';

try {
  startTracing(process.env);
} catch (error) {
  refuseStart(error);
}
