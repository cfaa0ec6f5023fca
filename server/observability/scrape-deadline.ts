/**
 * `work`'s answer, or a rejection once `ms` have passed: a figure read when Prometheus scrapes (a count of sessions,
 * the readiness checks) must never stall `/metrics` when what it asks does not answer; the caller leaves it out.
 */
export async function withinScrapeDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
