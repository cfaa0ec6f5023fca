import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../testing/temp-dir';
import { checkDocLinks, findLinks, formatProblem, githubSlug, headingAnchors } from './doc-links';

/** A documentation tree whose every link holds: files, folders, anchors, other sites, code that is not a link. */
const GOOD_TREE: Record<string, string> = {
  'README.md': [
    '# Slots platform',
    '',
    'See [the guide](docs/guide.md), [its options](docs/guide.md#options-and-limits), [the folder](docs/) and',
    '[the nginx example](deploy/nginx.example.conf), [a heading here](#run-it-fresh-machine) and',
    '[the spec site](https://example.com/spec.md) or [mail](mailto:team@example.com).',
    '',
    '## Run it (fresh machine)',
    '',
    '```sh',
    'cat ../elsewhere/notes.md   # a command, not a link: [x](missing.md)',
    '```',
    '',
    'The command `npm run remote:new -- team_billing --dir ../billing-remote` is code, and so is `[y](nowhere.md)`.',
  ].join('\n'),
  'docs/guide.md': [
    '# Guide',
    '',
    '## Options and limits',
    '',
    '## `GET /slots` and the `REMOTES_CONFIG` file',
    '',
    '## Options and limits',
    '',
    'Back to [the README](../README.md#slots-platform), [the wire](#get-slots-and-the-remotes_config-file),',
    '[the second one](#options-and-limits-1) and [a decision](decisions/why.md "Why").',
    '',
    '[ref]: <reference/locations.md#where-each-one-is>',
  ].join('\n'),
  'docs/decisions/why.md': '# Why\n\nSee [the guide](../guide.md#guide).\n',
  'docs/reference/locations.md': '# Locations\n\n## Where each one is\n',
  'deploy/nginx.example.conf': '# nginx\n',
};

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

describe('checkDocLinks', () => {
  let dir: TempDir;
  let root: string;

  beforeEach(() => {
    dir = makeTempDir('doc-links-');
    // The fixture repository sits one folder down, so a link can leave it and still name a file that exists.
    root = path.join(dir.path, 'repo');
  });

  afterEach(() => {
    dir.remove();
  });

  async function problemsOf(extra: Record<string, string>): Promise<string[]> {
    await writeTree(root, { ...GOOD_TREE, ...extra });
    const report = await checkDocLinks(root);
    return report.problems.map(formatProblem);
  }

  it('accepts good links to files, folders and headings, and skips other sites and code', async () => {
    await writeTree(root, GOOD_TREE);
    const report = await checkDocLinks(root);
    expect(report.problems).toEqual([]);
    expect(report.checkedFiles).toBe(4);
    // README 5 (2 other sites not counted), guide 5, why 1; code blocks and code spans hold none.
    expect(report.checkedLinks).toBe(11);
  });

  it('fails on a missing file or folder, naming where', async () => {
    const problems = await problemsOf({
      'docs/guide.md':
        '# Guide\n\n## Options and limits\n\nSee [operators](operators/README.md) and [the kit](../remotes/kit/).\n',
    });
    expect(problems).toEqual([
      'docs/guide.md:5: operators/README.md: no such file or folder: docs/operators/README.md',
      'docs/guide.md:5: ../remotes/kit/: no such file or folder: remotes/kit',
    ]);
  });

  it('fails on an anchor that matches no heading of its target', async () => {
    const problems = await problemsOf({
      'docs/decisions/why.md': [
        '# Why',
        '',
        'See [the guide](../guide.md#options) and [this page](#why-not) and [again](#why).',
        '[third](../guide.md#options-and-limits-2)',
      ].join('\n'),
    });
    expect(problems).toEqual([
      'docs/decisions/why.md:3: ../guide.md#options: no heading with the anchor #options',
      'docs/decisions/why.md:3: #why-not: no heading with the anchor #why-not',
      'docs/decisions/why.md:4: ../guide.md#options-and-limits-2: no heading with the anchor #options-and-limits-2',
    ]);
  });

  it('fails on a link or a path that leaves the repository, even when the file exists there', async () => {
    await writeTree(dir.path, { 'shared/DESIGN.md': '# Design\n' });
    const problems = await problemsOf({
      'README.md': [
        '# Slots platform',
        '',
        'The decisions are in [the handbook](../shared/DESIGN.md), the spec in `../shared/spec/slots-service.md`.',
        'And [this](docs/../../shared/DESIGN.md).',
      ].join('\n'),
    });
    expect(problems).toEqual([
      'README.md:3: ../shared/spec/slots-service.md: a path outside the repository (a clone does not have it)',
      'README.md:3: ../shared/DESIGN.md: leaves the repository (a clone does not have it)',
      'README.md:4: docs/../../shared/DESIGN.md: leaves the repository (a clone does not have it)',
    ]);
  });

  it('checks README.md and every Markdown file under docs/, and nothing else', async () => {
    const problems = await problemsOf({
      'docs/operators/deep/notes.md': '# Notes\n\n[gone](../../missing.md)\n',
      'remotes/kit/template/README.md': '[not checked](../../../../outside.md)\n',
    });
    expect(problems).toEqual([
      'docs/operators/deep/notes.md:3: ../../missing.md: no such file or folder: docs/missing.md',
    ]);
  });

  it('exits non-zero from the command line with one line per broken link, zero on a good tree', async () => {
    await writeTree(root, GOOD_TREE);
    const script = path.join(__dirname, 'check-doc-links.ts');
    const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');
    const good = spawnSync(tsx, [script, root], { encoding: 'utf8' });
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('Documentation links: 11 links in 4 Markdown files, none broken.');

    await writeTree(root, { 'docs/reference/locations.md': '# Locations\n\n[x](nowhere.md)\n' });
    const bad = spawnSync(tsx, [script, root], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(
      'docs/reference/locations.md:3: nowhere.md: no such file or folder: docs/reference/nowhere.md',
    );
    // The guide's reference definition pointed at the heading this rewrite removed.
    expect(bad.stderr).toContain(
      'docs/guide.md:12: reference/locations.md#where-each-one-is: no heading with the anchor #where-each-one-is',
    );
    expect(bad.stderr).toContain('Documentation links: 2 broken of 12 in 4 Markdown files.');
  }, 30_000);
});

describe('githubSlug', () => {
  it('follows GitHub: lower case, punctuation dropped, spaces to hyphens, code and links as their text', () => {
    expect(githubSlug('Run it (fresh machine)')).toBe('run-it-fresh-machine');
    expect(githubSlug('Headers and Content-Security-Policy')).toBe('headers-and-content-security-policy');
    expect(githubSlug('`GET /slots` and `GET /meta`')).toBe('get-slots-and-get-meta');
    expect(githubSlug('The `REMOTES_CONFIG` file')).toBe('the-remotes_config-file');
    expect(githubSlug('Why **cookie** sessions, not [tokens](x.md)?')).toBe('why-cookie-sessions-not-tokens');
    expect(githubSlug('Sign-in rate limits')).toBe('sign-in-rate-limits');
    expect(githubSlug('Cross-site requests (CSRF)')).toBe('cross-site-requests-csrf');
  });
});

describe('headingAnchors and findLinks', () => {
  it('numbers repeated headings, reads HTML anchors, and skips headings in code blocks', () => {
    const anchors = headingAnchors(
      ['# Limits', '## Limits', '```md', '# Not a heading', '```', '<a id="pinned"></a>', '### Limits ###'].join('\n'),
    );
    expect([...anchors]).toEqual(['limits', 'limits-1', 'pinned', 'limits-2']);
  });

  it('finds inline links, images and reference definitions with their lines, not those in code', () => {
    const links = findLinks(
      [
        'A [link](a.md) and ![image](img/b.png "title").',
        '~~~',
        '[in a block](c.md)',
        '~~~',
        '`[in a span](d.md)` and `../outside/e.md` and `cd ../elsewhere && ls`',
        '[def]: <f g.md>',
      ].join('\n'),
    );
    expect(links).toEqual([
      { line: 1, target: 'a.md', kind: 'link' },
      { line: 1, target: 'img/b.png', kind: 'link' },
      { line: 5, target: '../outside/e.md', kind: 'code' },
      { line: 6, target: 'f g.md', kind: 'link' },
    ]);
  });
});
