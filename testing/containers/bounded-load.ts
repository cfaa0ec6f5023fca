/**
 * A small, bounded load for the container tests: a few clients, each sending one request after another (a pause
 * between two), until stopped, or until a cap on the requests or on the time is reached, whichever comes first. Each
 * answer other than the expected status, and each error, is kept with what was asked and when.
 */

export interface LoadRequest {
  /** What the request is, in the failures listed (`GET /meta signed in`). */
  name: string;
  /** Sends it; resolves to the status answered. */
  send: () => Promise<number>;
  expected: number;
}

export interface LoadFailure {
  name: string;
  /** Milliseconds since the load started. */
  at: number;
  why: string;
}

export interface LoadResult {
  sent: number;
  failures: LoadFailure[];
  /** `stopped`: by the test; `count` or `time`: a cap was reached first, so the load did not cover the whole test. */
  ended: 'stopped' | 'count' | 'time';
  durationMs: number;
}

export interface BoundedLoadOptions {
  clients: number;
  /** Sent in turn by each client (client i starts at request i). */
  requests: readonly LoadRequest[];
  pauseMs: number;
  maxRequests: number;
  maxMs: number;
}

export interface BoundedLoad {
  /** Requests answered or failed so far. */
  sent(): number;
  /** Failures so far. */
  failures(): number;
  /** Stops the clients after their request in flight; resolves once they all ended. */
  stop(): Promise<LoadResult>;
}

export function startBoundedLoad(options: BoundedLoadOptions): BoundedLoad {
  const started = Date.now();
  const failures: LoadFailure[] = [];
  let sent = 0;
  let ended: LoadResult['ended'] | null = null;

  const client = async (index: number): Promise<void> => {
    for (let turn = index; ended === null; turn++) {
      if (sent >= options.maxRequests) ended ??= 'count';
      else if (Date.now() - started >= options.maxMs) ended ??= 'time';
      if (ended !== null) return;
      const request = options.requests[turn % options.requests.length] as LoadRequest;
      sent++;
      try {
        const status = await request.send();
        if (status !== request.expected) {
          failures.push({ name: request.name, at: Date.now() - started, why: `answered ${status}` });
        }
      } catch (error) {
        failures.push({ name: request.name, at: Date.now() - started, why: String(error) });
      }
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  const running = Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));

  return {
    sent: () => sent,
    failures: () => failures.length,
    async stop() {
      ended ??= 'stopped';
      await running;
      return { sent, failures, ended, durationMs: Date.now() - started };
    },
  };
}
