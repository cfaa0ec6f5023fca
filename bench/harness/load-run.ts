import autocannon from 'autocannon';

export interface LoadTarget {
  /** Full URL, e.g. `http://127.0.0.1:4000/slots`. */
  url: string;
  headers?: Record<string, string>;
}

export interface LoadRunOptions {
  seconds: number;
  connections: number;
}

/** One autocannon run, reduced to what the report compares. */
export interface LoadSample {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  bytesPerSecond: number;
  /** Milliseconds, as autocannon's HDR histogram records them (whole milliseconds). */
  latencyP50: number;
  latencyP99: number;
  latencyMean: number;
}

/** A load run that got anything but 2xx answers: its figures would measure error handling, not the route. */
export class NonSuccessfulLoadError extends Error {
  constructor(
    readonly url: string,
    readonly counts: { non2xx: number; errors: number; timeouts: number; statusCodes: Record<string, number> },
  ) {
    super(
      `Load run on ${url} got ${counts.non2xx} non-2xx answers, ${counts.errors} errors and ${counts.timeouts} ` +
        `timeouts (status codes: ${JSON.stringify(counts.statusCodes)}). Every answer must be 2xx.`,
    );
    this.name = 'NonSuccessfulLoadError';
  }
}

export async function runLoad(target: LoadTarget, options: LoadRunOptions): Promise<LoadSample> {
  const result = await autocannon({
    url: target.url,
    headers: target.headers ?? {},
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]),
  );
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.requests.total === 0) {
    throw new NonSuccessfulLoadError(target.url, {
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes,
    });
  }
  // The per-second histogram averages few samples; total over the measured duration is the steadier figure.
  const seconds = result.duration > 0 ? result.duration : options.seconds;
  return {
    requests: result.requests.total,
    seconds,
    requestsPerSecond: result.requests.total / seconds,
    bytesPerSecond: result.throughput.total / seconds,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyMean: result.latency.mean,
  };
}
