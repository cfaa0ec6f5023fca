/**
 * `npm run lint` runs this: checks the relative links of README.md and docs/ against the rules of
 * scripts/doc-links.ts and exits non-zero, one line per broken link, when one is broken. An argument names another
 * root to check (the tests' fixture trees); the repository's own by default.
 */
import path from 'node:path';
import { checkDocLinks, formatProblem } from './doc-links';

async function main(): Promise<void> {
  const rootDir = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
  const { checkedFiles, checkedLinks, problems } = await checkDocLinks(rootDir);
  for (const problem of problems) console.error(formatProblem(problem));
  if (problems.length > 0) {
    throw new Error(
      `Documentation links: ${problems.length} broken of ${checkedLinks} in ${checkedFiles} Markdown files.`,
    );
  }
  console.log(`Documentation links: ${checkedLinks} links in ${checkedFiles} Markdown files, none broken.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
