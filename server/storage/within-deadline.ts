/** What withinDeadline rejects with when the deadline passed first: the dependency did not answer, whatever it is doing. */
export class NoAnswerError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'NoAnswerError';
  }
}

/**
 * `work`'s answer, or a rejection (`no answer within <ms> ms`) once `ms` have passed, whichever comes first: for what
 * must answer in a bounded time whatever a dependency does (a readiness check, a figure read at a scrape, a first
 * connection). `work` itself goes on; a late answer is dropped.
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new NoAnswerError(ms)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long a readiness check may take before it counts as failing (`GET /readyz`, `slots_readiness_check`): a
 * dependency that stops answering (a frozen database or Redis, the connection left open) is then failing within two
 * seconds, below a load balancer's usual probe timeout and the scrape's wait for the checks.
 */
export const READINESS_CHECK_DEADLINE_MS = 2000;
