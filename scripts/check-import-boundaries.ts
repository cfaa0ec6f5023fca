/**
 * `npm run lint` runs this: checks what every product file imports against the rules of scripts/import-boundaries.ts,
 * the folder order of scripts/folder-order.ts and for import circles, and exits non-zero, one line per violation,
 * when one is broken.
 */
import path from 'node:path';
import { checkImportBoundaries, formatViolation, type ViolationKind } from './import-boundaries';

async function main(): Promise<void> {
  const rootDir = path.resolve(__dirname, '..');
  const { checkedFiles, violations } = await checkImportBoundaries(rootDir);
  for (const violation of violations) console.error(formatViolation(violation));
  if (violations.length > 0) {
    const count = (kind: ViolationKind) => violations.filter((violation) => violation.kind === kind).length;
    throw new Error(
      `Import boundaries: ${violations.length} violation${violations.length === 1 ? '' : 's'} in ${checkedFiles} product files ` +
        `(${count('boundary')} of a folder's rules, ${count('order')} against the folder order, ` +
        `${count('undeclared-room')} rooms not in it, ${count('room-cycle')} cycles of sibling folders, ` +
        `${count('circle')} import circles).`,
    );
  }
  console.log(`Import boundaries: ${checkedFiles} product files, no violation, no import circle.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
