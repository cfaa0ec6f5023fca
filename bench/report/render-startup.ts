import { formatMs, verdict } from './format';
import type { StartupResult } from './startup-result';

/** The Markdown section of the start-up benchmark: one row per way of running the server. */
export function renderStartup(results: readonly StartupResult[]): string[] {
  const lines = [
    '## Server start-up',
    '',
    'The demo server restarted on its database: from spawning `node` to its first answer (it listens: `/healthz` ' +
      '200) and to the first 200 of `/readyz` (it can serve; median of the starts, and the slowest), then its ' +
      'resident memory after 3 s idle (median). A start that listens while it starts (PostgreSQL applying the schema ' +
      'steps) answers long before it is ready; this restart listens once ready, so the two are one poll apart at ' +
      'most. Compiled is what `npm run serve` and the image run; tsx is how the server ran before.',
    '',
    '| Server | Starts | Answers | Ready | Slowest | Idle RSS | Goal | |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const entry of results) {
    const goal = entry.goals ? `< ${formatMs(entry.goals.readyMs)}, < ${entry.goals.idleRssMiB} MiB` : 'baseline';
    const met = entry.goals
      ? verdict(entry.readyMs < entry.goals.readyMs && entry.idleRssMiB < entry.goals.idleRssMiB)
      : '';
    lines.push(
      `| ${entry.name} | ${entry.starts} | ${formatMs(entry.answeredMs)} | ${formatMs(entry.readyMs)} | ` +
        `${formatMs(entry.readyMsMax)} | ` +
        `${entry.idleRssMiB.toFixed(0)} MiB | ${goal} | ${met} |`,
    );
  }
  lines.push('');
  return lines;
}
