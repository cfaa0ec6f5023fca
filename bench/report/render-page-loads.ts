import type { PageProtocol } from '../harness/bench-options';
import type { PageLoadResult, PageLoadSide } from './bench-results';
import { formatBytes, formatMs, formatRatio, verdict } from './format';

/** How the report names each protocol the pages were loaded over. */
const PROTOCOL_LABELS: Record<PageProtocol, string> = {
  http1: 'HTTP/1.1',
  h2: 'HTTPS, HTTP/2',
  https1: 'HTTPS, HTTP/1.1',
};

function protocolOf(result: PageLoadResult): PageProtocol {
  return result.protocol ?? 'http1';
}

/** The runs of one page in one state (cache, slot events, protocol), in run order. */
interface PageRuns {
  first: PageLoadResult;
  runs: PageLoadResult[];
}

/**
 * A page's goal over its runs: met only when there are at least two and every one meets it, since one run on a
 * shared machine can meet (or miss) a goal by chance.
 */
export function pageGoalVerdict(runs: readonly PageLoadResult[]): string {
  if (runs.length < 2) return 'one run: not counted';
  return verdict(runs.every((run) => run.ratio <= run.maximumRatio));
}

/**
 * A page's goal against the plain Module Federation setup: every run meets it (one run counts, issue 52: the
 * figure is the product against the plain setup in the same run).
 */
export function plainGoalVerdict(runs: readonly PageLoadResult[]): string {
  return verdict(runs.every((run) => run.plain !== undefined && run.plain.ratio <= run.plain.maximumRatio));
}

/** What the report calls each baseline of its rows. */
export const BUNDLED_BASELINE = 'bundled host';
export const PLAIN_BASELINE = 'plain Module Federation';

/** The pages' section of the report: the spread of each run, the two-run verdict, and what slot events cost. */
export function renderPageLoads(results: readonly PageLoadResult[]): string[] {
  const groups = groupRuns(
    results,
    (result) => `${protocolOf(result)}|${result.name}|${result.path}|${result.cache}|${result.slotEvents}`,
  );
  const perRun = (runs: readonly PageLoadResult[], cell: (run: PageLoadResult) => string) => runs.map(cell).join(' / ');
  const spread = (side: PageLoadSide) =>
    `${formatMs(side.medianMs)} (${Math.round(side.p25Ms)}–${Math.round(side.p75Ms)})`;
  const lines = [
    '## Pages in Chromium: Module Federation against the same components bundled into the host, and against a plain Module Federation setup',
    '',
    'Time from navigation start until every slot of the page is rendered: the median of the loads with their first ' +
      'and third quartiles (p25–p75) in brackets, for each consecutive run of the page suite (run 1 / run 2). Cold: ' +
      'a new browser context per load (empty cache); warm: the same page loaded once, untimed, in the context first. ' +
      'Signed-in pages sign in through `POST /login` in the context before the timed load. Each page has a row per ' +
      'baseline: the bundled host (the same shell with the components bundled in: the limit of loading them at run ' +
      'time), and plain Module Federation (the same shell and components built and loaded with ' +
      "`@module-federation/enhanced`'s defaults, bench/plain-federation: what a team would build instead). The " +
      "product's, the bundled and the plain loads alternate, each first in turn. Slot events off: every variant runs " +
      'without `navigator.sendBeacon`, so the host never starts its sender. The goal against the bundled host is met ' +
      'only when every run (at least two) meets it; against plain Module Federation, when every run meets it. ' +
      'Protocol: plain HTTP/1.1, or HTTPS served by the server itself (TLS_CERT_FILE) with HTTP/2, or with HTTP/1.1 ' +
      '(HTTP/2 off in Chromium).',
    '',
    '| Page | Protocol | Cache | Slot events | Loads per run | Federated (the product) | Against | Its time | Requests, bytes (federated; against) | Ratio | Goal | |',
    '| --- | --- | --- | --- | ---: | --- | --- | --- | --- | ---: | ---: | --- |',
  ];
  for (const { first, runs } of groups) {
    const row = (
      against: string,
      side: (run: PageLoadResult) => PageLoadSide,
      ratio: (run: PageLoadResult) => number,
    ) =>
      `| ${first.name} (\`${first.path}\`${first.signedIn ? ', signed in' : ''}) | ${PROTOCOL_LABELS[protocolOf(first)]} | ` +
      `${first.cache} | ${first.slotEvents} | ` +
      `${first.loads} | ${perRun(runs, (run) => spread(run.federated))} | ${against} | ` +
      `${perRun(runs, (run) => spread(side(run)))} | ` +
      `${first.federated.requests} req, ${formatBytes(first.federated.bytes)}; ` +
      `${side(first).requests} req, ${formatBytes(side(first).bytes)} | ` +
      `${perRun(runs, (run) => formatRatio(ratio(run)))}`;
    const bundledRow = row(
      BUNDLED_BASELINE,
      (run) => run.bundled,
      (run) => run.ratio,
    );
    lines.push(`${bundledRow} | <= ${formatRatio(first.maximumRatio)} | ${pageGoalVerdict(runs)} |`);
    // Results written before the plain side was measured have no such row.
    const plain = first.plain;
    if (plain && runs.every((run) => run.plain !== undefined)) {
      const plainRow = row(
        PLAIN_BASELINE,
        (run) => run.plain!.side,
        (run) => run.plain!.ratio,
      );
      lines.push(`${plainRow} | <= ${formatRatio(plain.maximumRatio)} | ${plainGoalVerdict(runs)} |`);
    }
  }
  lines.push(...renderProtocolComparison(results));
  lines.push(...renderEventsCost(results.filter((result) => protocolOf(result) === protocolOf(results[0]!))));
  lines.push('', 'Slots each page waited for:');
  const seen = new Set<string>();
  for (const result of results) {
    if (seen.has(result.path)) continue;
    seen.add(result.path);
    lines.push(`- \`${result.path}\`: ${result.slotComponents.join('; ')}.`);
  }
  lines.push('');
  return lines;
}

/**
 * For each page and state measured over HTTP/2 and plain HTTP/1.1: the median over HTTP/2 divided by the median
 * over HTTP/1.1, on each side, per run (below 1.00: HTTP/2 is faster), and the federated/bundled ratio over each.
 */
function renderProtocolComparison(results: readonly PageLoadResult[]): string[] {
  const over = (protocol: PageProtocol) => results.filter((result) => protocolOf(result) === protocol);
  const h2 = over('h2');
  const http1 = over('http1');
  if (h2.length === 0 || http1.length === 0) return [];
  const keyOf = (result: PageLoadResult) =>
    `${result.name}|${result.path}|${result.cache}|${result.slotEvents}|${result.run}`;
  const http1ByKey = new Map(http1.map((result) => [keyOf(result), result]));
  const rows: string[] = [];
  for (const { first, runs } of groupRuns(
    h2,
    (result) => `${result.name}|${result.path}|${result.cache}|${result.slotEvents}`,
  )) {
    const pairs = runs.flatMap((run) => {
      const other = http1ByKey.get(keyOf(run));
      return other ? [{ h2: run, http1: other }] : [];
    });
    if (pairs.length === 0) continue;
    const cells = (cell: (pair: { h2: PageLoadResult; http1: PageLoadResult }) => string) =>
      pairs.map(cell).join(' / ');
    rows.push(
      `| ${first.name} (\`${first.path}\`) | ${first.cache} | ${first.slotEvents} | ` +
        `${cells((pair) => formatRatio(pair.h2.federated.medianMs / pair.http1.federated.medianMs))} | ` +
        `${cells((pair) => formatRatio(pair.h2.bundled.medianMs / pair.http1.bundled.medianMs))} | ` +
        `${cells((pair) => formatRatio(pair.http1.ratio))} | ${cells((pair) => formatRatio(pair.h2.ratio))} |`,
    );
  }
  if (rows.length === 0) return [];
  return [
    '',
    'HTTP/2 against HTTP/1.1 (run 1 / run 2): the median over HTTPS with HTTP/2 divided by the median over plain ' +
      'HTTP/1.1, on each side (below 1.00: faster over HTTP/2, TLS included), and the federated/bundled ratio over ' +
      'each: the price of the remotes' +
      "'" +
      ' extra requests on six HTTP/1.1 connections against one HTTP/2 connection.',
    '',
    '| Page | Cache | Slot events | Federated, h2 ÷ HTTP/1.1 | Bundled, h2 ÷ HTTP/1.1 | Ratio over HTTP/1.1 | Ratio over HTTP/2 |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ];
}

/** For each page and cache state measured with slot events on and off: both ratios, and on against off per side. */
function renderEventsCost(results: readonly PageLoadResult[]): string[] {
  const rows: string[] = [];
  const byState = groupRuns(results, (result) => `${result.name}|${result.path}|${result.cache}`);
  for (const { first } of byState) {
    const of = (events: 'on' | 'off') =>
      results.filter(
        (result) =>
          result.name === first.name &&
          result.path === first.path &&
          result.cache === first.cache &&
          result.slotEvents === events,
      );
    const on = of('on');
    const off = of('off');
    if (on.length === 0 || off.length === 0 || on.length !== off.length) continue;
    const ratios = (runs: readonly PageLoadResult[]) => runs.map((run) => formatRatio(run.ratio)).join(' / ');
    const onOverOff = (side: 'federated' | 'bundled') =>
      on.map((run, index) => formatRatio(run[side].medianMs / off[index]![side].medianMs)).join(' / ');
    rows.push(
      `| ${first.name} (\`${first.path}\`) | ${first.cache} | ${ratios(on)} | ${ratios(off)} | ` +
        `${onOverOff('federated')} | ${onOverOff('bundled')} |`,
    );
  }
  if (rows.length === 0) return [];
  return [
    '',
    'What slot events cost (run 1 / run 2): the ratio against the bundled host with events on and with them off, and ' +
      'the median with events on divided by the median with them off, on each side (1.00: no cost on the way to the ' +
      'rendered page; events go after it).',
    '',
    '| Page | Cache | Ratio, events on | Ratio, events off | Federated, on ÷ off | Bundled, on ÷ off |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ];
}

function groupRuns(results: readonly PageLoadResult[], keyOf: (result: PageLoadResult) => string): PageRuns[] {
  const groups = new Map<string, PageRuns>();
  for (const result of results) {
    const key = keyOf(result);
    const group = groups.get(key);
    if (group) group.runs.push(result);
    else groups.set(key, { first: result, runs: [result] });
  }
  for (const group of groups.values()) group.runs.sort((a, b) => a.run - b.run);
  return [...groups.values()];
}
