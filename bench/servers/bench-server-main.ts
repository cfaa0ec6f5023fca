/**
 * The server as `server/main.ts` starts it (server/start-server.ts: same configuration from the environment, same
 * app factory, the demo content), plus two bench-only settings:
 *
 *   BENCH_EXTRA_SLOTS=<n>   registers n more slots (extra-slots.ts) through the app's registerSlots before ready()
 *   BENCH_DIST_DIR=<dir>    serves the front end from <dir> (the bundled host of the sign-in page benchmark)
 *   BENCH_RELEASES=1        every remote released twice, the second a 50 % canary (bench-releases.ts)
 *   BENCH_RELEASES_PER_REMOTE=<n>  with BENCH_RELEASES=1: n releases per remote instead of 2, the last a canary
 *   BENCH_RULED_SLOTS=<n>   registers n more slots with `visibleWhen` rules at protected locations (ruled-slots.ts)
 */
import path from 'node:path';
import { withDemo } from '../../server/demo';
import { startServer } from '../../server/start-server';
import { seedBenchReleases } from './bench-releases';
import { extraSlots } from './extra-slots';
import { ruledSlots } from './ruled-slots';

function wholeNumberOf(name: string, fallback = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name}=${JSON.stringify(raw)} must be a whole number.`);
  return Number(raw);
}

async function main(): Promise<void> {
  const extra = wholeNumberOf('BENCH_EXTRA_SLOTS');
  const ruled = wholeNumberOf('BENCH_RULED_SLOTS');
  const distDir = process.env.BENCH_DIST_DIR ? path.resolve(process.env.BENCH_DIST_DIR) : undefined;
  const running = await startServer(
    process.env,
    withDemo({
      ...(distDir ? { distDir } : {}),
      // The extra slots name a component no remote provides: they measure payloads, they never render.
      slotProblems: 'log',
      configure: (app) => {
        if (extra > 0) app.registerSlots(extraSlots(extra));
        if (ruled > 0) app.registerSlots(ruledSlots(ruled));
      },
    }),
  );
  const releases = process.env.BENCH_RELEASES === '1';
  if (releases) await seedBenchReleases(running.app, wholeNumberOf('BENCH_RELEASES_PER_REMOTE', 2));
  running.logger.info(
    { port: running.port, extraSlots: extra, ruledSlots: ruled, distDir: distDir ?? 'default', releases },
    'bench server listening',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`The bench server could not start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
