import fs from 'node:fs';
import path from 'node:path';

/**
 * `.ci/run` builds the container tests' images in the background (build-images-ahead.ts) while lint, the build and
 * the unit suites use the CPU: they are network- and disk-bound (debootstrap alone takes 1 to 14 minutes). It names a
 * folder in this variable, where the job writes `log` as it goes and `exit-code` when it ends.
 */
export const IMAGES_AHEAD_VARIABLE = 'SLOTS_IMAGES_AHEAD';

/** Longer than the slowest debootstrap seen (14 minutes) with the stand-ins and the app's dependencies after it. */
export const IMAGES_AHEAD_LIMIT_MS = 30 * 60_000;

export interface ImagesAheadWait {
  log?: (line: string) => void;
  /** Mostly for tests. */
  limitMs?: number;
  pollMs?: number;
}

/**
 * Resolves when the background job `.ci/run` started has ended well, at once when none was started (a developer's
 * run builds the images itself); rejects with the end of its log when it failed, or when it has not ended within
 * the limit. A second build of the same image beside the job's would only double the time.
 */
export async function waitForImagesBuiltAhead(options: ImagesAheadWait = {}): Promise<void> {
  const folder = process.env[IMAGES_AHEAD_VARIABLE];
  if (!folder) return;
  const limitMs = options.limitMs ?? IMAGES_AHEAD_LIMIT_MS;
  const started = Date.now();
  const exitCodeFile = path.join(folder, 'exit-code');
  const logFile = path.join(folder, 'log');
  let told = false;
  while (!fs.existsSync(exitCodeFile)) {
    if (Date.now() - started > limitMs) {
      throw new Error(
        `The container images .ci/run builds in the background were not ready within ${limitMs / 60_000} minutes ` +
          `(no ${exitCodeFile}). The end of its log, ${logFile}:\n${logTail(logFile)}`,
      );
    }
    if (!told) options.log?.(`waiting for the images .ci/run builds in the background (log: ${logFile})`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 2000));
  }
  const exitCode = fs.readFileSync(exitCodeFile, 'utf8').trim();
  if (exitCode !== '0') {
    throw new Error(
      `The container images .ci/run builds in the background failed (exit code ${exitCode}). ` +
        `The end of its log, ${logFile}:\n${logTail(logFile)}`,
    );
  }
  if (told) options.log?.(`the images built in the background are ready (waited ${secondsSince(started)} s)`);
}

function logTail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch (error) {
    return `(not readable: ${String(error)})`;
  }
}

function secondsSince(start: number): string {
  return ((Date.now() - start) / 1000).toFixed(0);
}
