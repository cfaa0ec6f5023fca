import express, { type Router } from 'express';
import { ERROR_MESSAGES, type ErrorBody, type HealthPayload } from '../../shared';
import { jsonRoute } from '../http/json-route';
import type { ReadinessReport } from '../readiness-checks';

/**
 * Named checks of readiness; each resolves to ok or failing and never throws. The server's own are READINESS_CHECKS
 * (readiness-checks.ts); an application's own (AppOptions.readinessChecks) name theirs.
 */
export type ReadinessCheck = () => Promise<ReadinessReport>;

/**
 * `GET /healthz`: the process is alive (a load balancer restarts it otherwise).
 * `GET /readyz`: it can serve (every check of READINESS_CHECKS reported passes: the database, Redis when configured,
 * started, not draining; and the application's own), 503 otherwise, so a load balancer stops sending traffic without
 * restarting it. The 503 body is both a HealthPayload and an error body.
 */
export function createHealthRouter(checkReadiness: ReadinessCheck): Router {
  const router = express.Router();
  jsonRoute(router, '/healthz', {
    GET: (_req, res) => {
      const payload: HealthPayload = { status: 'ok' };
      res.setHeader('Cache-Control', 'no-store');
      res.json(payload);
    },
  });
  jsonRoute(router, '/readyz', {
    GET: async (_req, res) => {
      const checks = await checkReadiness();
      const ready = Object.values(checks).every((state) => state === 'ok');
      res.setHeader('Cache-Control', 'no-store');
      if (ready) {
        const payload: HealthPayload = { status: 'ok', checks };
        res.json(payload);
        return;
      }
      const payload: HealthPayload & ErrorBody = {
        status: 'unavailable',
        checks,
        error: { code: 'unavailable', message: ERROR_MESSAGES.unavailable },
      };
      res.status(503).json(payload);
    },
  });
  return router;
}
