/**
 * The part of autocannon 8's programmatic API the benchmarks use. The package ships no types and no
 * `@types/autocannon` is installed; these follow its README ("API") and lib/aggregateResult.js.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Requests to send in all, then stop (duration is then ignored). */
      amount?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      pipelining?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      title?: string;
    }

    /** Latencies in milliseconds; requests and throughput per one-second sample. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total?: number;
      p1: number;
      p2_5: number;
      p10: number;
      p25: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      title?: string;
      url: string;
      connections: number;
      /** Seconds actually run. */
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram & { totalCount: number };
      requests: Histogram & { total: number; sent: number };
      throughput: Histogram & { total: number };
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;

  export = autocannon;
}
