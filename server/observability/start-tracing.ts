/**
 * Imported first by every entry that listens (server/main.ts), before anything loads express, pg or http: starts
 * the OpenTelemetry SDK when the environment names an OTLP endpoint (tracing.ts), and does nothing else.
 */
import { startTracing } from './tracing';

startTracing(process.env);
