/**
 * The remote teams' guide in the kit's package (`npm run kit:pack`): a team has the tarball and not the product's
 * repository, so the package carries `docs/remote-teams.md` and the pages of docs/ it links to, at their paths in the
 * repository, where the links between them work as written. A link of those pages to a file the package does not
 * carry (another page, the product's code) would lead nowhere there: it becomes its text and the file's path in the
 * repository, which a note under each page's title says where to find.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGED_GUIDE_FILE } from '../remotes/kit/packaged-files';
import { findLinks, proseLines } from './doc-links';

const ROOT_DIR = path.resolve(__dirname, '..');

/** An inline link or image: `[text](target "title")`, the target in `<…>` or not (as findLinks reads them). */
const INLINE_LINK = /(!?)\[([^\]]*)\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;

/** A link target's file, repository-relative with `/` (null for another site's, or an anchor of the same page). */
function linkedFile(fromFile: string, target: string): string | null {
  const unwrapped = target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
  if (/^[a-z][a-z0-9+.-]*:/i.test(unwrapped) || unwrapped.startsWith('//')) return null;
  const file = decodeURIComponent(unwrapped.replace(/[#?].*$/, ''));
  if (file === '') return null;
  return file.startsWith('/')
    ? path.posix.normalize(file.slice(1))
    : path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), file));
}

/** The guide and the pages of docs/ it links to: what the package carries, repository-relative. */
export function guidePages(rootDir = ROOT_DIR): string[] {
  const guide = PACKAGED_GUIDE_FILE;
  const linked = findLinks(readFileSync(path.join(rootDir, guide), 'utf8'))
    .filter((link) => link.kind === 'link')
    .map((link) => linkedFile(guide, link.target))
    .filter((file): file is string => file !== null && file.startsWith('docs/') && file.endsWith('.md'));
  return [guide, ...new Set(linked.filter((file) => file !== guide))];
}

/** The Markdown of a code span holding `text`, whatever backticks it holds. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return longest === 0 ? `${ticks}${text}${ticks}` : `${ticks} ${text} ${ticks}`;
}

/**
 * A link to a file the package does not carry, in words: its text and the file's repository path
 * (`[releases](releases.md)` -> `releases (`docs/operators/releases.md`)`), the path alone when the text names the
 * file (`[`tracing-sdk.ts`](../../server/observability/tracing-sdk.ts)`), the text alone in a heading, whose anchor
 * is made of its text.
 */
function linkInWords(text: string, file: string, inHeading: boolean): string {
  if (inHeading) return text;
  const named = text.replace(/^`+|`+$/g, '').trim();
  if (named !== '' && (file === named || file.endsWith(`/${named}`) || file.endsWith(`/${named.replace(/\/$/, '')}`))) {
    return codeSpan(file);
  }
  return `${text} (${codeSpan(file)})`;
}

/**
 * The paragraphs of prose of a Markdown text (runs of lines outside code blocks, without a blank line): a link, like
 * a code span, may go on over a line's end.
 */
function paragraphs(lines: readonly string[], markdown: string): Array<{ from: number; to: number }> {
  const found: Array<{ from: number; to: number }> = [];
  for (const { line } of proseLines(markdown)) {
    const index = line - 1;
    if ((lines[index] ?? '').trim() === '') continue;
    const last = found[found.length - 1];
    if (last !== undefined && last.to === index) last.to = index + 1;
    else found.push({ from: index, to: index + 1 });
  }
  return found;
}

/** The paragraph with its links to files not carried in words (code spans, links elsewhere left as they are). */
function paragraphInWords(text: string, file: string, carried: ReadonlySet<string>): string {
  const codeSpans = [...text.matchAll(/(`+)([\s\S]+?)\1/g)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
  const inCode = (at: number) => codeSpans.some(({ start, end }) => at >= start && at < end);
  return text.replace(INLINE_LINK, (whole: string, _image: string, linkText: string, target: string, at: number) => {
    const linked = linkedFile(file, target);
    if (inCode(at) || linked === null || carried.has(linked)) return whole;
    const line = text.slice(text.lastIndexOf('\n', at) + 1);
    return linkInWords(linkText, linked, /^ {0,3}#{1,6}\s/.test(line));
  });
}

/** The page as the package carries it: links to files not carried in words, and the note under its title. */
export function packagedPage(file: string, markdown: string, carried: ReadonlySet<string>, kitVersion: string): string {
  const lines = markdown.split('\n');
  // From the last paragraph up, so that the line numbers of those before stay right.
  for (const { from, to } of paragraphs(lines, markdown).reverse()) {
    const text = paragraphInWords(lines.slice(from, to).join('\n'), file, carried);
    lines.splice(from, to - from, ...text.split('\n'));
  }
  const note =
    `> From the product's repository (${codeSpan(file)}), as the remote kit ${kitVersion}'s package carries it: ` +
    'a file named by its path that the package does not carry is in that repository.';
  // Under the title (`# …`), else first; a blank line on each side.
  const head = /^# /.test(lines[0] ?? '') ? [lines[0]!, ''] : [];
  const rest = lines.slice(head.length / 2);
  return [...head, note, ...(rest[0] === '' ? [] : ['']), ...rest].join('\n');
}

/** Writes the guide and its pages into the package's folder; returns them, package-relative. */
export function writePackagedGuide(packageDir: string, kitVersion: string, rootDir = ROOT_DIR): string[] {
  const pages = guidePages(rootDir);
  const carried = new Set(pages);
  for (const file of pages) {
    const markdown = readFileSync(path.join(rootDir, file), 'utf8');
    mkdirSync(path.dirname(path.join(packageDir, file)), { recursive: true });
    writeFileSync(path.join(packageDir, file), packagedPage(file, markdown, carried, kitVersion));
  }
  return pages;
}
