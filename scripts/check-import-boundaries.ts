/**
 * `npm run lint` runs this: checks what every product file imports against the rules of scripts/import-boundaries.ts
 * and exits non-zero, one line per violation, when one is broken.
 */
import path from 'node:path';
import { checkImportBoundaries, formatViolation } from './import-boundaries';

async function main(): Promise<void> {
  const rootDir = path.resolve(__dirname, '..');
  const { checkedFiles, violations } = await checkImportBoundaries(rootDir);
  for (const violation of violations) console.error(formatViolation(violation));
  if (violations.length > 0) {
    throw new Error(
      `Import boundaries: ${violations.length} violation${violations.length === 1 ? '' : 's'} in ${checkedFiles} product files.`,
    );
  }
  console.log(`Import boundaries: ${checkedFiles} product files, no violation.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
