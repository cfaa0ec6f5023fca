/**
 * Where the server's start-up goes, phase by phase: `npx tsx bench/startup-phases.ts [--base <git ref>] [--without <a
 * shipped Node flag>] [--entry <another compiled main.js>] [--starts <n>] [--postgres] [--cpu-prof]`. The compiled
 * server (server/main.ts through the server's own build, started with the flags it ships with, as `npm run serve` and
 * the image start it) is spawned with bench/harness/startup-probe.cjs, which notes when each phase ends; `/readyz` is
 * asked every few milliseconds from here until it answers 200, as the start-up suite of `npm run bench` asks it
 * (bench/harness/start-until-ready.ts). Each start also reports the CPU time it used: on a busy machine the wall-clock
 * figures stretch with the wait for a core, the CPU time much less.
 *
 * Two cases: a restart on a database the demo already seeded, and a first start on a new, empty database file
 * (migrations, the demo's seed and its password hash). With `--postgres`, a third: a first start on a new PostgreSQL
 * database (a throwaway server, testing/server/postgres-server.ts), whose schema steps run in app.ready() while it
 * already listens (`/healthz` 200, `/readyz` 503: health/starting-listener.ts); its listening phases are then measured
 * from the seeding to the first `/readyz` 200 instead (harness/startup-phases-of.ts), and when it listened is shown.
 * With `--base`, that commit's server is compiled too and both start in turns, case by case, so that what the machine
 * does meanwhile falls on both alike: the figures printed are medians of each. No goal is checked: what a start costs
 * depends on the machine and its load (the figures of docs/operators/deploy.md come from `npm run bench --
 * --only=startup`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileServer } from '../scripts/compile-server';
import { SERVER_NODE_FLAGS } from '../server/process/server-node-flags';
import { PostgresServer } from '../testing/server/postgres-server';
import { REPO_ROOT, DIST_DIR } from '../testing/system/repo-root';
import { topSelfTime } from './harness/cpu-profile-summary';
import { median } from './harness/median';
import { whileReady, type ServerStart } from './harness/start-until-ready';
import { phasesOf, type ProbeReport, type StartPhases } from './harness/startup-phases-of';

const WORK_ROOT = path.join(REPO_ROOT, '.tsbuild', 'startup-phases');
const PROBE = path.join(__dirname, 'harness', 'startup-probe.cjs');
const READY_POLL_MS = 5;
const READY_TIMEOUT_MS = 120_000;

interface Variant {
  name: string;
  entry: string;
  /** The Node flags it starts with: the ones the server ships with, unless a run leaves one out. */
  flags: readonly string[];
}

/** Where a start keeps its data: DATABASE_PATH, or DATABASE_URL with its SESSION_SECRET. */
type Storage = Record<string, string | undefined>;
const sqlite = (file: string): Storage => ({ DATABASE_PATH: file });

const SCENARIOS = [
  'restart on the demo database',
  'first start on a new database',
  'first start on a new PostgreSQL database',
] as const;

interface Start {
  outsideMs: number;
  phases: StartPhases;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const base = valueOf(args, '--base');
  const starts = Number(valueOf(args, '--starts') ?? '7');
  const cpuProfile = args.includes('--cpu-prof');
  mkdirSync(WORK_ROOT, { recursive: true });
  const work = mkdtempSync(path.join(os.tmpdir(), 'slots-startup-'));
  const postgres = args.includes('--postgres') ? await PostgresServer.start() : undefined;
  try {
    const variants: Variant[] = [];
    if (base !== undefined) variants.push(await compiled('base', base));
    const current = await compiled('current', undefined);
    variants.push(current);
    // Another build of the server (an experiment: bundled, another compiler), started as the others are.
    for (const entry of valuesOf(args, '--entry')) {
      variants.push({ name: path.relative(REPO_ROOT, entry), entry: path.resolve(entry), flags: SERVER_NODE_FLAGS });
    }
    // What a shipped flag costs at start: the working tree again, without it.
    for (const flag of valuesOf(args, '--without')) {
      variants.push({
        ...current,
        name: `without ${flag}`,
        flags: current.flags.filter((shipped) => shipped !== flag),
      });
    }
    console.log(
      `${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );

    for (const scenario of SCENARIOS.filter((name) => postgres || !name.includes('PostgreSQL'))) {
      const results = variants.map(() => [] as Start[]);
      const restart = scenario.startsWith('restart');
      const databases = variants.map((_, index) => sqlite(path.join(work, `variant-${index}.db`)));
      // Untimed: the database a restart finds, made and seeded by the same server.
      if (restart) for (const [index, variant] of variants.entries()) await startOnce(variant, databases[index]!, work);
      const fresh = async (round: number, index: number): Promise<Storage> =>
        postgres && scenario.includes('PostgreSQL')
          ? {
              DATABASE_URL: await postgres.createDatabase(`new_${round}_${index}`),
              DATABASE_PATH: undefined,
              SESSION_SECRET: 'startup-phases-session-secret-0123456789',
            }
          : sqlite(path.join(work, `new-${round}-${index}.db`));
      for (let round = 0; round < starts; round++) {
        const order = round % 2 === 0 ? variants.keys() : [...variants.keys()].reverse();
        for (const index of order) {
          const storage = restart ? databases[index]! : await fresh(round, index);
          results[index]!.push(await startOnce(variants[index]!, storage, work));
        }
      }
      printScenario(scenario, starts, variants, results);
    }
    if (cpuProfile) {
      const variant = current;
      const profileDir = path.join(work, 'profile');
      const database = path.join(work, 'profiled.db');
      // A restart, as the first case: the database made by an untimed start first.
      await startOnce(variant, sqlite(database), work);
      await startOnce(variant, sqlite(database), work, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
      const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))!;
      const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as Parameters<
        typeof topSelfTime
      >[0];
      console.log(`\nSelf time of a restart (${variant.name}), heaviest first:`);
      for (const line of topSelfTime(profile, 30, WORK_ROOT)) {
        console.log(`${line.selfPercent.toFixed(1).padStart(5)} %  ${line.frame}`);
      }
    }
  } finally {
    await postgres?.remove();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The server of `ref` (a git ref) or of the working tree, compiled as `npm run build` compiles it. */
async function compiled(name: string, ref: string | undefined): Promise<Variant> {
  const outDir = path.join(WORK_ROOT, name);
  let root = REPO_ROOT;
  if (ref !== undefined) {
    root = path.join(WORK_ROOT, `${name}-sources`);
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    execFileSync('sh', ['-c', `git -C "$0" archive "$1" server shared | tar -x -C "$2"`, REPO_ROOT, ref, root]);
  }
  const result = await compileServer({ root, outDir, entry: 'server/main.ts' });
  return {
    name: ref === undefined ? 'working tree' : ref,
    entry: path.join(outDir, result.entry),
    flags: SERVER_NODE_FLAGS,
  };
}

/** One start, spawned as a supervisor would, until `/readyz` answers 200; then stopped with SIGTERM. */
function startOnce(variant: Variant, storage: Storage, work: string, nodeArgs: string[] = []): Promise<Start> {
  const probeOut = path.join(work, 'probe.json');
  rmSync(probeOut, { force: true });
  const start: ServerStart = {
    args: [...variant.flags, ...nodeArgs, '--require', PROBE, variant.entry],
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      FRONTEND_DIR: DIST_DIR,
      DEMO_PASSWORD: 'startup-phases-password',
      STARTUP_PROBE_OUT: probeOut,
      REMOTES_CONFIG: undefined,
      REDIS_URL: undefined,
      DATABASE_URL: undefined,
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
      ...storage,
    },
    pollMs: READY_POLL_MS,
    timeoutMs: READY_TIMEOUT_MS,
  };
  return whileReady(start, async ({ readyMs }) => {
    // The probe writes its report as it answers the first 200, before the response reaches here.
    const report = JSON.parse(readFileSync(probeOut, 'utf8')) as ProbeReport;
    return { outsideMs: readyMs, phases: phasesOf(report) };
  });
}

function printScenario(scenario: string, starts: number, variants: readonly Variant[], results: Start[][]): void {
  console.log(`\n${scenario}: medians of ${starts} starts each (ms)\n`);
  // A phase no start went through (the early listener's, or the listening ones of a start that listened early) is left
  // out rather than printed as '-'.
  const names = Object.keys(results[0]![0]!.phases.phases).filter((name) =>
    results.some((starts) => starts.some((start) => !Number.isNaN(start.phases.phases[name]))),
  );
  const early = (s: Start) => s.phases.listenedWhileStartingAt ?? NaN;
  const stepNames = [
    ...new Set(results.flatMap((starts) => starts.flatMap((start) => Object.keys(start.phases.steps)))),
  ];
  const rows: string[][] = [
    ['phase', ...variants.map((variant) => variant.name)],
    ...names.map((name) => [name, ...results.map((starts) => fmt(starts.map((start) => start.phases.phases[name]!)))]),
    ...(results.some((starts) => starts.some((s) => s.phases.listenedWhileStartingAt !== undefined))
      ? [['listened while starting (/healthz 200), since it began', ...results.map((starts) => fmt(starts.map(early)))]]
      : []),
    ['in the process, to the first /readyz 200', ...results.map((starts) => fmt(starts.map((s) => s.phases.readyAt)))],
    ['CPU time used by then (user and system)', ...results.map((starts) => fmt(starts.map((s) => s.phases.cpuMs)))],
    ['spawn to /readyz 200, seen from outside', ...results.map((starts) => fmt(starts.map((s) => s.outsideMs)))],
    [
      '(slowest start, from outside)',
      ...results.map((starts) => Math.max(...starts.map((s) => s.outsideMs)).toFixed(0)),
    ],
    ['modules loaded (count)', ...results.map((starts) => fmt(starts.map((s) => s.phases.modulesLoaded)))],
    ...stepNames
      .filter((step) => results.some((starts) => median(starts.map((s) => s.phases.steps[step] ?? 0)) >= 1))
      .map((step) => [
        `  ready(): ${step}`,
        ...results.map((starts) => fmt(starts.map((s) => s.phases.steps[step] ?? 0))),
      ]),
  ];
  const groups = topGroups(results[results.length - 1]!);
  rows.push(
    ...groups.map((group) => [
      `  loading ${group}`,
      ...results.map((starts) => fmt(starts.map((s) => s.phases.loadSelfMs[group] ?? 0))),
    ]),
  );
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) {
    console.log(
      row.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!))).join('  '),
    );
  }
}

/** The module groups that cost the most to load, by median. */
function topGroups(starts: readonly Start[], limit = 12): string[] {
  const groups = new Set(starts.flatMap((start) => Object.keys(start.phases.loadSelfMs)));
  return [...groups]
    .map((group) => [group, median(starts.map((s) => s.phases.loadSelfMs[group] ?? 0))] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([group]) => group);
}

function fmt(values: readonly number[]): string {
  const seen = values.filter((value) => !Number.isNaN(value));
  return seen.length === 0 ? '-' : median(seen).toFixed(0);
}

function valueOf(args: readonly string[], flag: string): string | undefined {
  return valuesOf(args, flag)[0];
}

function valuesOf(args: readonly string[], flag: string): string[] {
  return args.flatMap((arg, index) => (arg === flag && args[index + 1] !== undefined ? [args[index + 1]!] : []));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
