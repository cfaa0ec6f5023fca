import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from './repo-root';

/** The WCAG 2.2 level A and AA rules (2.0's and 2.1's with them): what the admin must pass. */
export const WCAG_22_AA_TAGS: readonly string[] = Object.freeze([
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22aa',
]);

/** One failed rule, with enough of each offending element to find it from the test's output. */
export interface AxeViolation {
  rule: string;
  impact: string | null;
  help: string;
  elements: string[];
}

let source: string | null = null;

/** axe-core's browser build, read once per test file. */
function axeSource(): string {
  source ??= readFileSync(path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  return source;
}

/**
 * Runs axe-core in the page as it is now against WCAG 2.2 A and AA, and returns the violations (an empty list
 * passes). The script is evaluated rather than added as a `<script>` element, which the page's
 * Content-Security-Policy would refuse.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const options: RunOptions = { runOnly: { type: 'tag', values: [...WCAG_22_AA_TAGS] }, resultTypes: ['violations'] };
  const results = await page.evaluate(
    (runOptions) =>
      (window as unknown as { axe: { run(context: Document, o: unknown): Promise<AxeResults> } }).axe.run(
        document,
        runOptions,
      ),
    options,
  );
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? null,
    help: violation.help,
    elements: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
  }));
}
