import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCliArguments } from '../../remotes/kit/cli';
import { PACKAGED_GUIDE_FILE } from '../../remotes/kit/packaged-files';
import { checkDocLinks, findLinks, formatProblem } from '../../scripts/doc-links';
import { KIT_DIR, kitTarballName, packKit, readKitManifest } from '../../scripts/kit-pack';
import {
  fillTemplate,
  PROJECT_PACKAGES,
  REMOTE_NAME_PLACEHOLDER,
  REMOTE_PROJECT_SCRIPTS,
  templateFiles,
} from '../../remotes/kit/new-project';
import { TEMPLATE_DIR } from '../../scripts/remote-new';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/**
 * The remote kit as a package, without installing it anywhere (tests/remote-teams/standalone-remote.test.ts installs
 * a scaffolded project): its version and tarball, what loading it prints, the template's substitution and scripts.
 */
jest.setTimeout(120_000);

describe('the kit package', () => {
  // Packed once (a minute: the kit compiled, the emulator bundled) for the tests that read the tarball.
  let destination: TempDir;
  let tarball = '';
  beforeAll(() => {
    destination = makeTempDir('slots-kit-pack-');
    tarball = packKit(destination.path);
  });
  afterAll(() => destination?.remove());

  it('is packed as slots-platform-remote-kit-<version>.tgz, its entry points inside the tarball', () => {
    const { version } = readKitManifest();
    expect(tarball).toBe(`slots-platform-remote-kit-${version}.tgz`);
    expect(kitTarballName({ name: '@slots-platform/remote-kit', version: '1.2.3' })).toBe(
      'slots-platform-remote-kit-1.2.3.tgz',
    );
    const file = path.join(destination.path, tarball);
    const listed = execFileSync('tar', ['tzf', file], { encoding: 'utf8' }).split('\n');
    const packed = JSON.parse(execFileSync('tar', ['xzOf', file, 'package/package.json'], { encoding: 'utf8' })) as {
      version: string;
      main: string;
      types: string;
      bin: Record<string, string>;
      exports: Record<string, { types: string; default: string } | string>;
    };
    expect(packed.version).toBe(version);
    // The repository's scripts stay out: its prepack refuses `npm pack` in remotes/kit/, which packs the sources.
    expect(packed).not.toHaveProperty('scripts');
    expect(readKitManifest().scripts).toHaveProperty('prepack');
    const entries = [packed.main, packed.types, ...Object.values(packed.bin)];
    for (const entry of Object.values(packed.exports)) {
      if (typeof entry === 'object') entries.push(entry.types, entry.default);
    }
    for (const entry of entries) expect(listed).toContain(path.posix.join('package', entry));
    expect(listed).toContain('package/CHANGELOG.md');
    // The package's own page, its command naming this very tarball (its links are checked with the guide's below).
    expect(listed).toContain('package/README.md');
    expect(execFileSync('tar', ['xzOf', file, 'package/README.md'], { encoding: 'utf8' })).toContain(
      `--package=./${tarball} -- slots-remote new`,
    );
    expect(listed).toContain(`package/${PACKAGED_GUIDE_FILE}`);
    // What `slots-remote new` and `slots-remote dev` need from the package alone.
    expect(listed).toEqual(
      expect.arrayContaining([
        'package/template/remote.ts',
        'package/template/gitignore',
        'package/template/components/Hello.test.tsx',
        'package/emulator/index.html',
        'package/emulator/emulator.js',
      ]),
    );
    const versions = JSON.parse(
      execFileSync('tar', ['xzOf', file, 'package/project-versions.json'], { encoding: 'utf8' }),
    ) as Record<string, string>;
    expect(Object.keys(versions).sort()).toEqual(
      [...PROJECT_PACKAGES.dependencies, ...PROJECT_PACKAGES.devDependencies].sort(),
    );
    // Nothing is left in the kit's folder: packing assembles the package elsewhere.
    expect(() => readFileSync(path.join(KIT_DIR, 'lib', 'remotes', 'kit', 'index.js'))).toThrow();
  });

  it("carries the remote teams' guide, whose links, and those of a new project's README, lead to packed files", async () => {
    const unpacked = makeTempDir('slots-kit-unpacked-');
    try {
      execFileSync('tar', ['xzf', path.join(destination.path, tarball), '-C', unpacked.path]);
      const kit = path.join(unpacked.path, 'package');
      // The guide and the pages it links to, each link to a packed file and a heading of it (a team has no
      // checkout of the product's repository: a link to one of its files would lead nowhere).
      const guide = readFileSync(path.join(kit, PACKAGED_GUIDE_FILE), 'utf8');
      expect(guide).toContain(readFileSync(path.join(REPO_ROOT, PACKAGED_GUIDE_FILE), 'utf8').split('\n')[2]);
      expect(existsSync(path.join(kit, 'docs/reference/locations.md'))).toBe(true);
      const packed = await checkDocLinks(kit);
      expect(packed.problems.map(formatProblem)).toEqual([]);
      expect(packed.checkedFiles).toBeGreaterThan(1);
      expect(packed.checkedLinks).toBeGreaterThan(10);
      // A new project's README, with the kit installed where npm puts it: its links lead into the package.
      const project = path.join(unpacked.path, 'project');
      mkdirSync(path.join(project, 'node_modules', '@slots-platform'), { recursive: true });
      symlinkSync(kit, path.join(project, 'node_modules', '@slots-platform', 'remote-kit'));
      const readme = fillTemplate(readFileSync(path.join(kit, 'template', 'README.md'), 'utf8'), 'team_billing');
      writeFileSync(path.join(project, 'README.md'), readme);
      const links = findLinks(readme).filter((link) => !/^https?:/.test(link.target));
      expect(links.map((link) => link.target)).toEqual(
        expect.arrayContaining([`node_modules/@slots-platform/remote-kit/${PACKAGED_GUIDE_FILE}`]),
      );
      const inProject = await checkDocLinks(project);
      expect(inProject.problems.map(formatProblem)).toEqual([]);
      expect(inProject.checkedLinks).toBe(links.length);
    } finally {
      unpacked.remove();
    }
  });

  it("has the version of the changelog's newest entry, and no change waits outside a version", () => {
    const changelog = readFileSync(path.join(KIT_DIR, 'CHANGELOG.md'), 'utf8');
    const sections = changelog.split(/^## /m).slice(1);
    const versions = sections.map((section) => section.split('\n')[0]!.trim()).filter((h) => /^\d+\.\d+\.\d+/.test(h));
    expect(versions[0]).toBe(readKitManifest().version);
    // npm installs a tarball again only when its version changed: an entry without a version never reaches a team.
    for (const section of sections) {
      const heading = section.split('\n')[0]!.trim();
      if (/^\d+\.\d+\.\d+/.test(heading) || heading === 'How a version is chosen') continue;
      expect({ heading, entries: section.split('\n').filter((line) => line.startsWith('- ')) }).toEqual({
        heading,
        entries: [],
      });
    }
  });

  it('loads in this repository (webpack.config.ts) without a Node deprecation warning (DEP0128)', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', "require('./webpack.config.ts')"], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/DEP0128|DeprecationWarning/);
  });
});

const readTemplateFile = (file: string) => readFileSync(path.join(TEMPLATE_DIR, file), 'utf8');

describe('the template of npm run remote:new', () => {
  it('puts the remote name everywhere the placeholder stands, the README heading included', () => {
    const files = templateFiles(TEMPLATE_DIR);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'remote.ts']));
    for (const file of files) {
      const text = fillTemplate(readTemplateFile(file), 'team_billing');
      expect({ file, leftover: text.match(/REMOTE_NAME/g) }).toEqual({ file, leftover: null });
    }
    expect(fillTemplate(readTemplateFile('README.md'), 'team_billing').split('\n')[0]).toBe('# team_billing');
    expect(fillTemplate(readTemplateFile('remote.ts'), 'team_billing')).toContain("name: 'team_billing'");
    expect(readTemplateFile('README.md')).toContain(REMOTE_NAME_PLACEHOLDER);
  });

  it('type-checks in build and test, and leaves the dev port to the command line', () => {
    expect(REMOTE_PROJECT_SCRIPTS.build).toMatch(/^tsc --noEmit && slots-remote build$/);
    expect(REMOTE_PROJECT_SCRIPTS.test).toMatch(/^tsc --noEmit && jest$/);
    expect(REMOTE_PROJECT_SCRIPTS.dev).not.toContain('--port');
    // The default port, and `npm run dev -- --port <port>`; an option given twice takes its last value.
    expect(parseCliArguments(['dev'], '/project').port).toBe(4100);
    expect(parseCliArguments(['dev', '--port', '4200'], '/project').port).toBe(4200);
    expect(parseCliArguments(['dev', '--port', '4100', '--port', '4200'], '/project').port).toBe(4200);
  });

  it('publishes with npm run release, the kit command that reads its token from the environment only', () => {
    expect(REMOTE_PROJECT_SCRIPTS.release).toBe('slots-remote release');
  });

  it("names every kind of file of dist/ the product's pages load among those its README says to deploy", () => {
    // The stylesheets a component loads are copied into dist/ as `<hash>.css`: left off the list, a team deploying
    // what it names shipped components whose styles answered 404 on every page.
    const deploy = readTemplateFile('README.md')
      .split('\n\n')
      .find((paragraph) => paragraph.startsWith('Of `dist/`, the product reads'));
    expect(deploy).toBeDefined();
    for (const kind of ['`mf-manifest.json`', '`slots-remote.json`', '`.js`', '`.css`']) {
      expect({ kind, listed: deploy!.includes(kind) }).toEqual({ kind, listed: true });
    }
  });
});
