import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../testing/system/repo-root';

/**
 * Slot props and record data are data: the host and the remotes render them as React text and attributes, never
 * as markup. Any of these sinks would let a prop (or a record field) inject HTML or script into the page.
 */
const HTML_SINKS: ReadonlyArray<[string, RegExp]> = [
  ['dangerouslySetInnerHTML', /dangerouslySetInnerHTML/],
  ['innerHTML', /\.innerHTML\b|\binnerHTML\s*[:=]/],
  ['outerHTML', /\.outerHTML\s*=/],
  ['insertAdjacentHTML', /insertAdjacentHTML/],
  ['document.write', /document\.write(ln)?\s*\(/],
  ['createContextualFragment', /createContextualFragment/],
  ['eval', /(^|[^\w.])eval\s*\(|new\s+Function\s*\(/],
];

const SOURCE_FILE = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
/** Tests may read innerHTML to assert on what was rendered; they ship nothing to a browser. */
const TEST_FILE = /\.(test|spec)\.[jt]sx?$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '__fixtures__']);

function sourceFiles(root: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(root, entry);
    if (statSync(full).isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry)) files.push(...sourceFiles(full));
    } else if (SOURCE_FILE.test(entry) && !TEST_FILE.test(entry)) {
      files.push(full);
    }
  }
  return files;
}

/** `file:line: sink` for every use of an HTML sink in the given folders. */
function findHtmlSinks(folders: readonly string[]): string[] {
  const findings: string[] = [];
  for (const folder of folders) {
    for (const file of sourceFiles(folder)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const [name, pattern] of HTML_SINKS) {
          if (pattern.test(line)) findings.push(`${path.relative(REPO_ROOT, file)}:${index + 1}: ${name}`);
        }
      });
    }
  }
  return findings;
}

describe('the host and the remotes never inject props as HTML', () => {
  const folders = ['host', 'remotes'].map((folder) => path.join(REPO_ROOT, folder));

  it('scans real source files', () => {
    const scanned = folders.flatMap(sourceFiles);
    expect(scanned.length).toBeGreaterThan(0);
  });

  it('finds no HTML sink (dangerouslySetInnerHTML, innerHTML, insertAdjacentHTML, document.write, eval)', () => {
    expect(findHtmlSinks(folders)).toEqual([]);
  });

  it('would catch one (the check itself works)', () => {
    const fixture = path.join(REPO_ROOT, 'tests', 'hardening', 'fixtures', 'html-sinks');
    expect(findHtmlSinks([fixture]).map((finding) => finding.replace(/^.*: /, ''))).toEqual([
      'dangerouslySetInnerHTML',
      'innerHTML',
      'insertAdjacentHTML',
      'eval',
    ]);
  });
});
