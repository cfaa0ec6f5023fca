import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS_DIR } from './repo-root';

export const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots');

/** Writes a full-page PNG to `artifacts/screenshots/<name>.png` (overwritten on every run) and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
