import type { BenchResults } from './bench-results';
import { formatBytes, formatCount, formatMBps, formatMs, formatRatio, verdict } from './format';
import { renderPageLoads } from './render-page-loads';
import { renderStartup } from './render-startup';

/** The Markdown report of one run: one table per benchmark family, goals and verdicts beside the ratios. */
export function renderMarkdown(results: BenchResults): string {
  const { machine, plans } = results;
  const lines: string[] = [
    `# Benchmark results, ${results.startedAt.slice(0, 10)}`,
    '',
    `Run started ${results.startedAt}, took ${Math.round(results.durationSeconds)} s (\`${benchCommand(results.args)}\`).`,
    `Machine: ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}; ` +
      `load average ${machine.loadAverage.start} at the start, ${machine.loadAverage.end ?? 'n/a'} at the end ` +
      '(other work on the machine makes every figure noisier; compare ratios, not absolute req/s).',
    '',
    `Load: autocannon (from the bench process) and wrk (its own process, one thread), each in its own rounds, ` +
      `${plans.main.connections} connections, ${plans.main.warmupSeconds} s ` +
      `warm-up per side, then ${plans.main.rounds} rounds of ${plans.main.roundSeconds} s per side, target and ` +
      `baseline alternating; figures are the medians of the rounds (registry sizes: ${plans.sizes.warmupSeconds} s ` +
      `warm-up, ${plans.sizes.rounds} x ${plans.sizes.roundSeconds} s). Every run ended with zero non-2xx answers, ` +
      'errors and timeouts, or it is listed under failures. Each server is its own production process ' +
      '(NODE_ENV=production), compiled as the image runs it (node alone, no tsx), with its own temporary database.',
    '',
  ];

  if (results.throughput.length > 0) {
    lines.push(
      '## Throughput against bare baselines',
      '',
      '| Benchmark | Client | Body | Target req/s | p50 | p99 | Baseline req/s | p50 | p99 | Ratio | Goal | |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    );
    for (const entry of results.throughput) {
      const { target, baseline, ratio } = entry.comparison;
      lines.push(
        `| ${entry.name} | ${entry.generator} | ${formatBytes(entry.bodyBytes)} | ${formatCount(target.requestsPerSecond)} | ` +
          `${formatMs(target.latencyP50)} | ${formatMs(target.latencyP99)} | ${formatCount(baseline.requestsPerSecond)} | ` +
          `${formatMs(baseline.latencyP50)} | ${formatMs(baseline.latencyP99)} | ${formatRatio(ratio)} | ` +
          `>= ${formatRatio(entry.minimumRatio)} | ${verdict(ratio >= entry.minimumRatio)} |`,
      );
    }
    const baselines = [...new Set(results.throughput.map((entry) => `- ${entry.name}: ${entry.baseline}.`))];
    lines.push('', 'Baselines:', ...baselines, '');
    const priced = results.throughput.filter((entry) => entry.serverCpu !== undefined);
    if (priced.length > 0) {
      lines.push(
        'Server CPU per answer (user + system time of each server process over the answers of a round, median of ' +
          'the rounds; baseline ÷ target, higher is better), then of its main thread alone (where the answers are ' +
          "made; the rest is V8's compilers and collector and a traced server's export thread):",
        ...priced.map(({ name, generator, serverCpu }) => {
          const {
            targetMicroseconds: target,
            baselineMicroseconds: baseline,
            targetMainThreadMicroseconds: mainTarget,
            baselineMainThreadMicroseconds: mainBaseline,
          } = serverCpu!;
          const mainThread =
            mainTarget === undefined || mainBaseline === undefined
              ? ''
              : `; main thread ${mainTarget.toFixed(1)} µs against ${mainBaseline.toFixed(1)} µs ` +
                `(${formatRatio(mainBaseline / mainTarget)})`;
          return (
            `- ${name}, ${generator}: ${target.toFixed(1)} µs against ${baseline.toFixed(1)} µs ` +
            `(${formatRatio(baseline / target)})${mainThread}`
          );
        }),
        '',
      );
    }
  }

  if (results.payloadSizes.length > 0) {
    lines.push(
      '## Cost per request by registry size',
      '',
      'The server with N extra registered slots against a bare route that sends the same bytes: the ratio must not ' +
        'fall as N grows, because payloads are built once per change, not per request.',
      '',
      '| Endpoint | Extra slots | Body | req/s | MB/s | p50 | p99 | Bare req/s | Bare MB/s | Ratio | Goal | |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    );
    for (const entry of results.payloadSizes) {
      const { target, baseline, ratio } = entry.comparison;
      lines.push(
        `| \`GET ${entry.endpoint}\` | ${formatCount(entry.extraSlots)} | ${formatBytes(entry.bodyBytes)} | ` +
          `${formatCount(target.requestsPerSecond)} | ${formatMBps(target.bytesPerSecond)} | ${formatMs(target.latencyP50)} | ` +
          `${formatMs(target.latencyP99)} | ${formatCount(baseline.requestsPerSecond)} | ` +
          `${formatMBps(baseline.bytesPerSecond)} | ${formatRatio(ratio)} | >= ${formatRatio(entry.minimumRatio)} | ` +
          `${verdict(ratio >= entry.minimumRatio)} |`,
      );
    }
    const baselines = [
      ...new Set(results.payloadSizes.map((entry) => `- \`GET ${entry.endpoint}\`: ${entry.baseline}.`)),
    ];
    lines.push('', 'Baselines:', ...baselines, '');
  }

  if (results.registration.length > 0) {
    lines.push(
      '## Registering slots at start-up',
      '',
      '`registerSlots` into a fresh registry, then its first read, in the bench process (median of 7): the time per ' +
        'slot at the smaller size divided by the time per slot at the larger one.',
      '',
      '| Registration | Slots | Time | Baseline slots | Time | Ratio per slot | Goal | |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    );
    for (const entry of results.registration) {
      const goal = entry.minimumRatio === null ? 'none' : `>= ${formatRatio(entry.minimumRatio)}`;
      const status = entry.minimumRatio === null ? '' : verdict(entry.ratio >= entry.minimumRatio);
      lines.push(
        `| ${entry.name} | ${formatCount(entry.slots)} | ${formatMs(entry.targetMs)} | ${formatCount(entry.baselineSlots)} | ` +
          `${formatMs(entry.baselineMs)} | ${formatRatio(entry.ratio)} | ${goal} | ${status} |`,
      );
    }
    lines.push('');
  }

  if (results.startup && results.startup.length > 0) lines.push(...renderStartup(results.startup));

  if (results.pageLoads.length > 0) lines.push(...renderPageLoads(results.pageLoads));

  if (results.bundles.length > 0) {
    lines.push(
      '## Bundle sizes (gzip)',
      '',
      '| Part | Files | gzip | Budget | |',
      '| --- | ---: | ---: | ---: | --- |',
    );
    for (const bundle of results.bundles) {
      const budget = bundle.budgetBytes === null ? 'none' : formatBytes(bundle.budgetBytes);
      const status = bundle.budgetBytes === null ? '' : verdict(bundle.gzipBytes <= bundle.budgetBytes);
      lines.push(
        `| ${bundle.name} | ${bundle.files.length} | ${formatBytes(bundle.gzipBytes)} | ${budget} | ${status} |`,
      );
    }
    lines.push('');
  }

  if (results.failures.length > 0) {
    lines.push(
      '## Failures',
      '',
      ...results.failures.map((failure) => `- **${failure.benchmark}**: ${failure.message}`),
      '',
    );
  }
  return lines.join('\n');
}

/** The command that made the run, as typed: which suites and plans a committed example stands for. */
function benchCommand(args: readonly string[] | undefined): string {
  return args && args.length > 0 ? `npm run bench -- ${args.join(' ')}` : 'npm run bench';
}
