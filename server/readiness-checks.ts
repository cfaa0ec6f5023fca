/**
 * The server's own readiness checks: their names, what each means and when `GET /readyz` reports it. The one list of
 * them: the modules that make a check report it under its name here (typed by ServerReadiness), `slots_readiness_check`
 * writes its series from it, and the metrics guide check holds a guide's `check="…"` to these names.
 */

/** What a check says: `/readyz` answers 200 only when every check says ok. */
export type CheckState = 'ok' | 'failing';

/**
 * When `GET /readyz` reports a check: `always`; `configured`, only where what it checks is configured; `failing`,
 * only while it fails (a check whose absence is its passing).
 */
export type CheckReported = 'always' | 'configured' | 'failing';

/** Each check of the server's own, by name: what its failing means, and when it is reported. */
export const READINESS_CHECKS = {
  database: {
    means: 'the database (SQLite, or PostgreSQL with DATABASE_URL) answers a query within 2 seconds',
    reported: 'always',
  },
  redis: {
    means: 'Redis, where sessions live with REDIS_URL, is connected and answers a PING within a second',
    reported: 'configured',
  },
  started: {
    means: 'the start has finished (app.ready(): schema steps, what the host serves loaded, remotes asked)',
    reported: 'failing',
  },
  draining: {
    means: 'no shutdown has begun (SIGTERM, SIGINT): failing from its first step, so the balancer stops sending',
    reported: 'failing',
  },
} as const satisfies Record<string, { means: string; reported: CheckReported }>;

/** The name of a check of the server's own. */
export type ServerCheckName = keyof typeof READINESS_CHECKS;

/** The server's own checks' names, in READINESS_CHECKS' order. */
export const SERVER_CHECK_NAMES = Object.keys(READINESS_CHECKS) as readonly ServerCheckName[];

/** What a part of the server reports of its checks: some of READINESS_CHECKS, by name. */
export type ServerReadiness = { readonly [name in ServerCheckName]?: CheckState };

/**
 * Readiness as `GET /readyz` answers it, by check name: the server's own (READINESS_CHECKS) and those of the
 * application that embeds it (AppOptions.readinessChecks), whose names are its own.
 */
export type ReadinessReport = Record<string, CheckState>;

/**
 * `report` with every check of the server's own that is reported only while failing (`started`, `draining`) and is
 * absent from it, as passing: what `slots_readiness_check` writes, so that those series are there from the first
 * scrape (at 1) rather than appear only at 0.
 */
export function withPassingUnreported(report: ReadinessReport): ReadinessReport {
  const passing = SERVER_CHECK_NAMES.filter(
    (name) => READINESS_CHECKS[name].reported === 'failing' && !(name in report),
  );
  return { ...Object.fromEntries(passing.map((name) => [name, 'ok' as const])), ...report };
}

/**
 * The reports of the parts as one: a check named twice (an option's check under a server's name, `database`) fails
 * when either says so, so the embedding application's `ok` never hides the server's own failing check, nor the other
 * way round.
 */
export function mergedReadiness(reports: readonly (ReadinessReport | ServerReadiness | undefined)[]): ReadinessReport {
  const merged: ReadinessReport = {};
  for (const report of reports) {
    for (const [name, state] of Object.entries(report ?? {})) {
      if (merged[name] !== 'failing') merged[name] = state as CheckState;
    }
  }
  return merged;
}
