import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The relative links of the repository's documentation, checked against the files they point at: `README.md` and
 * every `docs/**\/*.md`. A clone must be readable on its own, so a link fails when:
 *
 * - its target file or folder does not exist;
 * - its `#anchor` matches no heading of the target Markdown file (GitHub's rules: see {@link githubSlug});
 * - it leaves the repository (`../shared/...` from the root), and so does a path written as inline code that starts
 *   with `../` (prose names files from the repository root, so such a path is outside it whatever the file).
 *
 * Links with a scheme (`https:`, `mailto:`) or starting with `//` are someone else's and are not fetched. Code blocks
 * and code spans are not links; a link target starting with `/` is read from the repository root, as GitHub does.
 */

export interface DocLinkProblem {
  /** Repository-relative path of the Markdown file, with `/`. */
  file: string;
  line: number;
  /** The link target (or the code-span path) as written. */
  target: string;
  reason: string;
}

export interface DocLinkReport {
  checkedFiles: number;
  checkedLinks: number;
  problems: DocLinkProblem[];
}

/** One link or path found in a Markdown file. */
export interface FoundLink {
  line: number;
  target: string;
  /** `link`: a Markdown link or image; `code`: a path written as inline code. */
  kind: 'link' | 'code';
}

export function formatProblem(problem: DocLinkProblem): string {
  return `${problem.file}:${problem.line}: ${problem.target}: ${problem.reason}`;
}

/**
 * The anchor GitHub gives a heading: lower case, every character that is neither a letter, a digit, a space, `-`
 * nor `_` dropped, then each space turned into `-`. Markdown inside the heading counts as its rendered text.
 */
export function githubSlug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text a heading renders: code spans without their backticks, links as their text, no emphasis marks. */
function headingText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/(^|\W)_(\S(?:.*?\S)?)_(?=\W|$)/g, '$1$2')
    .trim();
}

/**
 * Every anchor a Markdown file offers: one per heading (a repeated slug gets `-1`, `-2`, ... as on GitHub) and the
 * `id` or `name` of an HTML anchor element.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (heading) {
      const slug = githubSlug(heading[1] ?? '');
      const seen = counts.get(slug) ?? 0;
      counts.set(slug, seen + 1);
      anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
    }
    for (const match of text.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) {
      if (match[1] !== undefined) anchors.add(match[1]);
    }
  }
  return anchors;
}

/** The lines outside fenced code blocks, with their 1-based numbers. */
export function proseLines(markdown: string): Array<{ line: number; text: string }> {
  const lines: Array<{ line: number; text: string }> = [];
  let fence: string | null = null;
  markdown.split(/\r?\n/).forEach((text, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence === null && marker !== undefined) {
      fence = marker;
    } else if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    } else {
      lines.push({ line: index + 1, text });
    }
  });
  return lines;
}

/**
 * The links of a Markdown file (inline links, images, reference definitions) and the paths written as inline code
 * that start with `../`. Code blocks are skipped, and links inside code spans are not links.
 */
export function findLinks(markdown: string): FoundLink[] {
  const found: FoundLink[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const codeSpans: string[] = [];
    const prose = text.replace(/(`+)(.+?)\1/g, (_span, _ticks: string, code: string) => {
      codeSpans.push(code.trim());
      return ' ';
    });
    for (const code of codeSpans) {
      if (/^\.\.[/\\]\S*$/.test(code)) found.push({ line, target: code, kind: 'code' });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(prose);
    if (definition?.[1] !== undefined) found.push({ line, target: unwrap(definition[1]), kind: 'link' });
    for (const match of prose.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
      if (match[1] !== undefined) found.push({ line, target: unwrap(match[1]), kind: 'link' });
    }
  }
  return found;
}

function unwrap(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}

/** `README.md` and every Markdown file under `docs/`, repository-relative with `/`, sorted. */
async function documentationFiles(rootDir: string): Promise<string[]> {
  const files: string[] = [];
  if (await exists(path.join(rootDir, 'README.md'))) files.push('README.md');
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(path.join(rootDir, folder), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const relative = `${folder}/${entry.name}`;
      if (entry.isDirectory()) await walk(relative);
      else if (entry.isFile() && entry.name.endsWith('.md')) files.push(relative);
    }
  };
  await walk('docs');
  return files.sort();
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function isInside(rootDir: string, target: string): boolean {
  const relative = path.relative(rootDir, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Checks every link of the documentation under `rootDir`; see the top of this file for the rules. */
export async function checkDocLinks(rootDir: string): Promise<DocLinkReport> {
  const root = path.resolve(rootDir);
  const files = await documentationFiles(root);
  const anchorsByFile = new Map<string, Set<string>>();
  const anchorsOf = async (file: string): Promise<Set<string>> => {
    let anchors = anchorsByFile.get(file);
    if (anchors === undefined) {
      anchors = headingAnchors(await readFile(file, 'utf8'));
      anchorsByFile.set(file, anchors);
    }
    return anchors;
  };

  const problems: DocLinkProblem[] = [];
  let checkedLinks = 0;
  for (const file of files) {
    const absolute = path.join(root, file);
    const links = findLinks(await readFile(absolute, 'utf8'));
    for (const link of links) {
      const problem = link.kind === 'code' ? OUTSIDE_PATH : await linkProblem(root, absolute, link, anchorsOf);
      if (problem === undefined) continue;
      checkedLinks++;
      if (problem !== null) problems.push({ file, line: link.line, target: link.target, reason: problem });
    }
  }
  return { checkedFiles: files.length, checkedLinks, problems };
}

/** A `../` path in a code span: prose names files from the repository root, so it leaves the repository. */
const OUTSIDE_PATH = 'a path outside the repository (a clone does not have it)';

/**
 * Why a link is broken, null when it is fine, undefined when it is not a link to check (another site's, or an
 * e-mail address).
 */
async function linkProblem(
  root: string,
  file: string,
  link: FoundLink,
  anchorsOf: (file: string) => Promise<Set<string>>,
): Promise<string | null | undefined> {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  const hashAt = target.indexOf('#');
  const pathPart = hashAt === -1 ? target : target.slice(0, hashAt);
  const anchor = hashAt === -1 ? null : target.slice(hashAt + 1);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart.replace(/\?.*$/, ''));
  } catch {
    return 'not a valid URL path';
  }
  const resolved =
    decoded === ''
      ? file
      : decoded.startsWith('/')
        ? path.join(root, decoded)
        : path.resolve(path.dirname(file), decoded);
  if (!isInside(root, resolved)) return 'leaves the repository (a clone does not have it)';
  const info = await stat(resolved).catch(() => null);
  if (info === null) return `no such file or folder: ${path.relative(root, resolved).split(path.sep).join('/')}`;
  if (anchor === null || anchor === '') return null;
  if (info.isDirectory()) return 'an anchor on a folder';
  if (!resolved.endsWith('.md')) return null;
  const anchors = await anchorsOf(resolved);
  let wanted: string;
  try {
    wanted = decodeURIComponent(anchor).toLowerCase();
  } catch {
    return 'not a valid anchor';
  }
  return anchors.has(wanted) ? null : `no heading with the anchor #${wanted}`;
}
