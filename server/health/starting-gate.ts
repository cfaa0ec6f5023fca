import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ERROR_MESSAGES, type ErrorBody, type HealthPayload } from '../../shared';
import { askClientToReconnect } from '../process/server-lifecycle';
import type { ServerReadiness } from '../readiness-checks';

/** What `Retry-After` asks of a client a starting host turned away: the probes' own period, about. */
export const STARTING_RETRY_AFTER_SECONDS = 5;

/** `/readyz`'s 503 while the start has not finished: a HealthPayload and an error body, with what the start does. */
export type StartingPayload = HealthPayload & ErrorBody & { starting: string };

/**
 * What a host answers while it listens before its start has finished: a start that waits for another host's
 * indexing of the search words, or indexes them itself, takes minutes on a large database, and a host that did not
 * listen meanwhile was a dead one to its orchestrator's liveness probe (killed, its indexing begun again) and told
 * nobody what it was doing. Until `open()`: `GET /healthz` 200 (the process lives), `GET /readyz` 503 with `starting`
 * saying what the start does, and every other request 503 `unavailable` with `Retry-After`, asking the client to
 * reconnect as a draining host's answers do (the balancer's next connection may go to a ready host). The app itself
 * is not reached: nothing of sessions, remotes or records is served before ready() has finished.
 */
export class StartingGate {
  private opened = false;
  private reason = 'starting';

  /** `answerHeaders`: every JSON answer's (security/api-security-headers.ts). */
  constructor(private readonly answerHeaders: Readonly<Record<string, string>>) {}

  /** Says what the start is doing now, in `/readyz`'s `starting`. */
  starting(reason: string): void {
    this.reason = reason;
  }

  /** From now on every request goes to the app. */
  open(): void {
    this.opened = true;
  }

  /** `serve` once open; the answers above before. */
  listener(serve: RequestListener): RequestListener {
    return (req, res) => {
      if (this.opened) serve(req, res);
      else this.answer(req, res);
    };
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?', 1)[0];
    const probe = req.method === 'GET' || req.method === 'HEAD';
    if (probe && path === '/healthz') {
      const payload: HealthPayload = { status: 'ok' };
      this.send(req, res, 200, payload);
      return;
    }
    const unavailable = { code: 'unavailable' as const, message: ERROR_MESSAGES.unavailable };
    if (probe && path === '/readyz') {
      const payload: StartingPayload = {
        status: 'unavailable',
        checks: { started: 'failing' } satisfies ServerReadiness,
        starting: this.reason,
        error: unavailable,
      };
      this.send(req, res, 503, payload);
      return;
    }
    res.setHeader('Retry-After', String(STARTING_RETRY_AFTER_SECONDS));
    // Its body unread, the connection cannot serve another request; and the next one may find a ready host.
    askClientToReconnect(res);
    const payload: ErrorBody = { error: unavailable };
    this.send(req, res, 503, payload);
  }

  private send(req: IncomingMessage, res: ServerResponse, status: number, payload: object): void {
    const body = JSON.stringify(payload);
    for (const [name, value] of Object.entries(this.answerHeaders)) res.setHeader(name, value);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.statusCode = status;
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
