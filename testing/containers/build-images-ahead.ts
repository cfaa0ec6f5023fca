/**
 * Builds what the container tests (tests/deploy/) start from, ahead of them: the stand-in base (debootstrap), the
 * stand-ins of PostgreSQL, Redis and nginx, and the app image's dependency layers. `.ci/run` runs it in the
 * background right after `npm install`; the tests wait for it (images-built-ahead.ts). Each image already in the
 * store is kept, so a second run takes seconds.
 *
 *   npx tsx testing/containers/build-images-ahead.ts
 */
import { buildAppDependencies } from './app-image';
import { IMAGES_AHEAD_VARIABLE } from './images-built-ahead';
import { ensureNodeBaseImage } from './node-base-image';
import { ensureStandinImage } from './standin-images';
import { ensureStandinProxyImage } from './standin-proxy';

export async function buildImagesAhead(log: (line: string) => void): Promise<void> {
  // This is the job the helpers would wait for: it must not wait for itself.
  delete process.env[IMAGES_AHEAD_VARIABLE];
  const started = Date.now();
  const timed = async (what: string, build: () => Promise<unknown>): Promise<void> => {
    const start = Date.now();
    await build();
    log(`${what}: ${seconds(start)} s`);
  };
  await timed('the stand-in base', () => ensureNodeBaseImage({ log }));
  // On the base, independent of one another: mostly waiting for the mirrors, so side by side.
  await Promise.all([
    timed('postgres stand-in', () => ensureStandinImage('postgres', { log })),
    timed('redis stand-in', () => ensureStandinImage('redis', { log })),
    timed('nginx stand-in with openssl', () => ensureStandinProxyImage({ log })),
    timed("the app image's dependencies", () => buildAppDependencies({ log })),
  ]);
  log(`all built in ${seconds(started)} s`);
}

function seconds(start: number): string {
  return ((Date.now() - start) / 1000).toFixed(0);
}

if (require.main === module) {
  buildImagesAhead((line) => console.log(`[images ahead] ${line}`)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
