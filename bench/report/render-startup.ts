import { formatMs, verdict } from './format';
import type { StartupResult } from './startup-result';

/** The Markdown section of the start-up benchmark: one row per way of running the server. */
export function renderStartup(results: readonly StartupResult[]): string[] {
  const lines = [
    '## Server start-up',
    '',
    'The demo server restarted on its database: from spawning `node` to the first 200 of `/healthz` (median of the ' +
      'starts, and the slowest), then its resident memory after 3 s idle (median). Compiled is what `npm run serve` ' +
      'and the image run; tsx is how the server ran before.',
    '',
    '| Server | Starts | Ready | Slowest | Idle RSS | Goal | |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const entry of results) {
    const goal = entry.goals ? `< ${formatMs(entry.goals.readyMs)}, < ${entry.goals.idleRssMiB} MiB` : 'baseline';
    const met = entry.goals
      ? verdict(entry.readyMs < entry.goals.readyMs && entry.idleRssMiB < entry.goals.idleRssMiB)
      : '';
    lines.push(
      `| ${entry.name} | ${entry.starts} | ${formatMs(entry.readyMs)} | ${formatMs(entry.readyMsMax)} | ` +
        `${entry.idleRssMiB.toFixed(0)} MiB | ${goal} | ${met} |`,
    );
  }
  lines.push('');
  return lines;
}
