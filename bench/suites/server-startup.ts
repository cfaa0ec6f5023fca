import fs from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/process/server-node-flags';
import type { BenchContext } from '../harness/bench-context';
import { compiledEntry } from '../harness/compiled-entry';
import { median } from '../harness/median';
import { whileReady, type ServerStart } from '../harness/start-until-ready';
import type { StartupResult } from '../report/startup-result';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Starts per variant, alternating: enough for a median that one slow start does not move. */
const STARTS = 5;
/** How long a started server sits unused before its memory is read: start-up's garbage gets collected meanwhile. */
const IDLE_MS = 3_000;
const READY_POLL_MS = 10;
const READY_TIMEOUT_MS = 30_000;
/** Issue 49's goals for the compiled server (tsx, measured from outside then: 1.7 to 3.0 s, 139 MiB). */
export const STARTUP_GOALS = Object.freeze({ readyMs: 1_000, idleRssMiB: 100 });

interface Variant {
  name: string;
  args: (compiledDir: string) => string[];
  goals: boolean;
}

const VARIANTS: readonly Variant[] = [
  {
    name: 'compiled (node dist/server/main.js)',
    // With the flags every launcher gives it: the start measured is the one that ships.
    args: (compiledDir) => [...SERVER_NODE_FLAGS, path.join(compiledDir, 'server', 'main.js')],
    goals: true,
  },
  {
    name: 'tsx (server/main.ts)',
    args: () => ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'main.ts')],
    goals: false,
  },
];

/**
 * The demo server's start, as an operator restarts it (the database already made and seeded by an untimed first
 * start): time from spawning `node` to its first answer and to the first 200 of `/readyz` (as bench/startup-phases.ts
 * times it: a start that listens while it starts, PostgreSQL applying the schema steps, answers `/healthz` 200 long
 * before it can serve), and the resident memory after IDLE_MS of no requests. Compiled (what `npm run serve` and the
 * image run) against tsx (what they ran before), in turns.
 */
export async function benchServerStartup(context: BenchContext, frontendDir: string): Promise<StartupResult[]> {
  const { dir: compiledDir } = await compiledEntry('server/main.ts');
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    FRONTEND_DIR: frontendDir,
    DATABASE_PATH: path.join(context.workDir, 'startup.db'),
    DEMO_PASSWORD: 'bench-startup-password',
  };
  // Untimed: migrations and the demo's seeding happen once, on the first start only.
  await startOnce(VARIANTS[0]!.args(compiledDir), env, 0);

  const samples = VARIANTS.map(() => ({ answeredMs: [] as number[], readyMs: [] as number[], rssMiB: [] as number[] }));
  for (let round = 0; round < STARTS; round++) {
    for (const [index, variant] of VARIANTS.entries()) {
      const sample = await startOnce(variant.args(compiledDir), env, IDLE_MS);
      samples[index]!.answeredMs.push(sample.answeredMs);
      samples[index]!.readyMs.push(sample.readyMs);
      samples[index]!.rssMiB.push(sample.rssMiB);
    }
  }
  return VARIANTS.map((variant, index) => {
    const { answeredMs, readyMs, rssMiB } = samples[index]!;
    const result: StartupResult = {
      name: variant.name,
      starts: STARTS,
      answeredMs: median(answeredMs),
      readyMs: median(readyMs),
      readyMsMax: Math.max(...readyMs),
      idleRssMiB: median(rssMiB),
      goals: variant.goals ? STARTUP_GOALS : null,
    };
    return result;
  });
}

/** One start: spawned, asked until /readyz answers 200, left idle, its RSS read, then stopped. */
function startOnce(
  args: string[],
  env: NodeJS.ProcessEnv,
  idleMs: number,
): Promise<{ answeredMs: number; readyMs: number; rssMiB: number }> {
  const start: ServerStart = {
    args,
    env,
    cwd: REPO_ROOT,
    pollMs: READY_POLL_MS,
    timeoutMs: READY_TIMEOUT_MS,
  };
  return whileReady(start, async ({ answeredMs, readyMs, pid }) => {
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    return { answeredMs, readyMs, rssMiB: residentMiB(pid) };
  });
}

/** VmRSS of a process (Linux), in MiB. */
function residentMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`No VmRSS for process ${pid}.`);
  return Number(kib) / 1024;
}
