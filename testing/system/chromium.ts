import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; the tests never download a browser. CHROMIUM_PATH overrides it on other machines. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a headless run in a container: no sandbox (root), no GPU, no background traffic to Google. */
export const CHROMIUM_FLAGS: readonly string[] = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);

export function chromiumExecutablePath(): string {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}

export function missingChromiumMessage(executablePath: string): string {
  return (
    `Chromium was not found at ${executablePath}. The browser tests drive Debian's Chromium: install the Debian ` +
    `package \`chromium\` with \`apt-get install -y chromium\` (as root), or set CHROMIUM_PATH to a Chromium binary.`
  );
}

/**
 * Launches headless Chromium through playwright-core; fails with an instructive message when it is missing.
 * `extraFlags` go after the usual ones (e.g. `--disable-http2`).
 */
export async function launchChromium(extraFlags: readonly string[] = []): Promise<Browser> {
  const executablePath = chromiumExecutablePath();
  if (!existsSync(executablePath)) throw new Error(missingChromiumMessage(executablePath));
  try {
    return await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS, ...extraFlags] });
  } catch (error) {
    throw new Error(`Chromium at ${executablePath} did not start: ${(error as Error).message}`);
  }
}
