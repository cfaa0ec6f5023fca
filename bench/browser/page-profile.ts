import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { Browser } from 'playwright-core';
import { openWarmedContext, waitForReadyTime, type PageVisit } from './page-load';
import { slotsReadyProbe, type ExpectedSlots } from './slots-ready-probe';

/** The part of a V8 CPU profile (the DevTools protocol's `Profiler.Profile`) the attribution reads. */
export interface PageCpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** One profiled load: its profile and when every expected slot was rendered (ms since navigation start). */
export interface ProfiledLoad {
  profile: PageCpuProfile;
  readyMs: number;
}

/** Sampling interval of the profiler, in microseconds: fine enough for the few-millisecond steps of a page's start. */
const SAMPLING_INTERVAL_US = 100;

/**
 * One load of the visit's page, as measurePageLoad makes it (a new context, signed in and warmed when the visit says
 * so), with V8's sampling profiler running in the page from before navigation until every expected slot is rendered.
 * Kept apart from the timed loads: the profiler slows the page it watches.
 */
export async function profilePageLoad(
  browser: Browser,
  visit: PageVisit,
  expected: ExpectedSlots,
  timeoutMs = 30_000,
): Promise<ProfiledLoad> {
  const context = await openWarmedContext(browser, visit, timeoutMs);
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: slotsReadyProbe(expected) });
    const session = await context.newCDPSession(page);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await session.send('Profiler.start');
    await page.goto(visit.url, { waitUntil: 'commit', timeout: timeoutMs });
    const readyMs = await waitForReadyTime(page, timeoutMs);
    const { profile } = await session.send('Profiler.stop');
    // V8 leaves samples and timeDeltas out of a profile that took none.
    return {
      profile: { nodes: profile.nodes, samples: profile.samples ?? [], timeDeltas: profile.timeDeltas ?? [] },
      readyMs,
    };
  } finally {
    await context.close();
  }
}

/** Profile nodes that are no script's code: V8's own names for them. */
const V8_PSEUDO_FRAMES: Readonly<Record<string, string>> = {
  '(program)': "(program): the browser's own work on the page's thread",
  '(garbage collector)': '(garbage collector)',
};
/** Functions with no script: the browser's APIs called by the page (and the bench's probe, an init script). */
export const OUTSIDE_SCRIPTS = '(browser APIs and the bench probe)';

/**
 * What a frame of the page's own scripts ran: the package (`react-dom`, `@module-federation/runtime-core`) or the
 * repository folder (`host/core`, `remotes/marketing`) its source is in, read from the build's source maps. `source`
 * is a source map's source (`webpack://<name>/<path relative to the build's folder>`), `folder` that build's folder
 * relative to the repository (`.` for the host, `remotes/marketing` for a remote), so the same code gets the same
 * name in the federated page and the bundled one. Webpack's own runtime is one name, wherever it runs.
 */
export function packageOfSource(source: string, folder: string): string {
  const relative = source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^\.\//, '');
  if (relative.startsWith('webpack/')) return 'webpack runtime';
  const full = path.posix.normalize(path.posix.join(folder, relative));
  const inPackage = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(full);
  if (inPackage?.[1]) return inPackage[1];
  const parts = full.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? full);
}

/** Where a page's script URL path was built from: the served file, and the build's folder in the repository. */
interface ServedScript {
  file: string;
  folder: string;
}

/**
 * The frame resolver of one server's build folder (the layout `npm run build` writes: `host/` served at `/`,
 * `remotes/<name>/` at `/remotes/<name>/`), reading each script's source map once. `remoteFolders` names the
 * repository folder of each remote, so the remotes' code is named as in the bundled page, which imports it from there.
 */
export function sourceMapResolver(
  distDir: string,
  remoteFolders: Readonly<Record<string, string>>,
): (url: string, line: number, column: number) => string {
  const maps = new Map<string, { map: TraceMap; folder: string } | null>();
  const served = (pathname: string): ServedScript | null => {
    const remote = /^\/remotes\/([^/]+)\//.exec(pathname);
    if (remote?.[1]) {
      return { file: path.join(distDir, pathname), folder: remoteFolders[remote[1]] ?? `remotes/${remote[1]}` };
    }
    return pathname.startsWith('/assets/') ? { file: path.join(distDir, 'host', pathname), folder: '.' } : null;
  };
  return (url, line, column) => {
    const { pathname } = new URL(url);
    // Named without its content hash, so that the same file of both variants is one row.
    const file = pathname.replace(/\.[0-9a-f]{8,}\.js$/, '.js');
    let entry = maps.get(url);
    if (entry === undefined) {
      const script = served(pathname);
      entry =
        script && existsSync(`${script.file}.map`)
          ? { map: new TraceMap(readFileSync(`${script.file}.map`, 'utf8')), folder: script.folder }
          : null;
      maps.set(url, entry);
    }
    if (entry === null) return `${file} (no source map)`;
    // The profile's positions are 0-based; a source map's lines are 1-based, its columns 0-based.
    const { source } = originalPositionFor(entry.map, { line: line + 1, column });
    if (source === null) return `${file} (code the map does not cover)`;
    // As the map writes it: the resolved source has lost a leading `../` (code from beside a remote's folder).
    const written = entry.map.sources[entry.map.resolvedSources.indexOf(source)] ?? source;
    return packageOfSource(written, entry.folder);
  };
}

/**
 * Milliseconds of the page's main thread per load, by what ran: each package or folder of the page's scripts, the
 * browser's APIs, V8's garbage collector and the browser's own work (`(program)`). Idle time is left out. A sample
 * counts for the time until the next one (`timeDeltas`), so the figures add up to the busy time profiled.
 */
export function mainThreadTimeByPackage(
  loads: readonly PageCpuProfile[],
  resolve: (url: string, line: number, column: number) => string,
): Map<string, number> {
  const totals = new Map<string, number>();
  for (const profile of loads) {
    const selfMs = new Map<number, number>();
    profile.samples.forEach((node, index) => {
      const deltaUs = profile.timeDeltas[index + 1] ?? 0;
      selfMs.set(node, (selfMs.get(node) ?? 0) + deltaUs / 1000);
    });
    for (const node of profile.nodes) {
      const ms = selfMs.get(node.id);
      if (!ms) continue;
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      let name: string | null;
      if (url === '') name = V8_PSEUDO_FRAMES[functionName] ?? (functionName.startsWith('(') ? null : OUTSIDE_SCRIPTS);
      else name = url.startsWith('http') ? resolve(url, lineNumber, columnNumber) : OUTSIDE_SCRIPTS;
      if (name === null) continue;
      totals.set(name, (totals.get(name) ?? 0) + ms / loads.length);
    }
  }
  return totals;
}
