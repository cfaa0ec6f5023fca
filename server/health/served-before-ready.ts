import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';

/** Logged once when the app's handler answers before `ready()` was called. */
export const APP_NOT_READY =
  'A request was served before app.ready() was called: the slot check, the releases and placements in force and ' +
  "the remotes' descriptors have not been loaded, and /readyz answers 503 until ready() has finished. Call " +
  '`await app.ready()` once registrations are done, before serving app.handler.';

/**
 * `listener`, saying once in the log when it serves a request before `readyCalled()`: an entry that forgot
 * `await app.ready()` served slots nothing had checked and nothing in force, while /readyz alone would tell only a
 * load balancer. After ready() is called it costs one call per request.
 */
export function warnedBeforeReady(
  listener: RequestListener,
  readyCalled: () => boolean,
  logger: Logger,
): RequestListener {
  let warned = false;
  return (req, res) => {
    if (!warned && !readyCalled()) {
      warned = true;
      logger.warn(APP_NOT_READY);
    }
    listener(req, res);
  };
}
