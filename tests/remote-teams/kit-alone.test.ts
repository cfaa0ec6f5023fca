import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PACKAGED_GUIDE_FILE } from '../../remotes/kit/packaged-files';
import { checkDocLinks, findLinks, formatProblem } from '../../scripts/doc-links';
import { packKit } from '../../scripts/kit-pack';
import { launchChromium } from '../../testing/system/chromium';
import { getFreePort } from '../../testing/system/free-port';
import { recordPage, type PageLog } from '../../testing/system/page-log';
import { runInProject, startProjectDevServer, type ProjectDevServer } from '../../testing/system/remote-project';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/**
 * A team with the kit's tarball and nothing else of the product: `npm exec` runs the kit's `slots-remote new` in a
 * temporary folder (no product checkout above it, no product code reachable from it), then in the new project
 * alone `npm install`, `npm test` (the slot tests catch a wrong prop), `npm run build`, and `npm run dev`, whose host
 * emulator renders the remote's components in Chromium as the product would. One install serves every assertion.
 */
jest.setTimeout(600_000);

const REMOTE = 'team_emulated';
let work: TempDir;
let projectDir = '';
let dev: ProjectDevServer | undefined;
let browser: Browser | undefined;

const inProject = (command: string, args: string[]) => runInProject(projectDir, command, args);

/** A form component, as a team adds one: it reads a field of the form it sits in and writes it back upper-cased. */
const SHOUT = `import type { FormSlotProps } from '@slots-platform/remote-kit';

export function Shout({ formContext, field }: FormSlotProps<{ field: string }>) {
  const value = String(formContext.values[field] ?? '');
  return (
    <button type="button" className="shout" onClick={() => formContext.setValue(field, value.toUpperCase())}>
      Shout {value}
    </button>
  );
}

export default Shout;
`;

beforeAll(async () => {
  work = makeTempDir('slots-kit-alone-');
  const kit = path.join(work.path, 'kit');
  const tarball = path.join(kit, packKit(kit));
  const team = path.join(work.path, 'team');
  projectDir = path.join(team, REMOTE);
  // The team's folder: nothing of this repository above it or in it.
  expect(path.relative(REPO_ROOT, team).startsWith('..')).toBe(true);
  execFileSync('mkdir', ['-p', team]);
  execFileSync(
    'npm',
    ['exec', '--yes', `--package=${tarball}`, '--', 'slots-remote', 'new', REMOTE, '--dir', projectDir],
    { cwd: team, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, INIT_CWD: team } },
  );
  // The project as a team extends it: a form component declared beside Hello.
  writeFileSync(path.join(projectDir, 'components', 'Shout.tsx'), SHOUT);
  const declaration = path.join(projectDir, 'remote.ts');
  writeFileSync(
    declaration,
    readFileSync(declaration, 'utf8')
      .replace('Hello: propsSchema({ name: Type.String() }),', '$&\n    Shout: propsSchema({ field: Type.String() }),')
      .replace('formComponents: [],', "formComponents: ['Shout'],"),
  );
  inProject('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline']);
  browser = await launchChromium();
});

afterAll(async () => {
  dev?.stop();
  await browser?.close();
  work?.remove();
});

describe('a project scaffolded from the kit tarball alone', () => {
  it('is the project npm run remote:new makes, and depends on the kit through its own tarball', () => {
    const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.scripts).toMatchObject({ build: 'tsc --noEmit && slots-remote build', dev: 'slots-remote dev' });
    const kitDependency = manifest.devDependencies['@slots-platform/remote-kit'] ?? '';
    expect(kitDependency).toMatch(/^file:\.\/slots-platform-remote-kit-\d+\.\d+\.\d+\.tgz$/);
    expect(existsSync(path.join(projectDir, kitDependency.slice('file:./'.length)))).toBe(true);
    expect(readFileSync(path.join(projectDir, 'README.md'), 'utf8').split('\n')[0]).toBe(`# ${REMOTE}`);
    // npm pack leaves every .gitignore out of the kit: the template's comes as `gitignore`, renamed in the project.
    expect(readFileSync(path.join(projectDir, '.gitignore'), 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['node_modules/', 'dist/', 'dev-dist/', '.mf/']),
    );
  });

  it("has the remote teams' guide once installed: its README's links lead to the guide in the kit", async () => {
    const guide = `node_modules/@slots-platform/remote-kit/${PACKAGED_GUIDE_FILE}`;
    expect(findLinks(readFileSync(path.join(projectDir, 'README.md'), 'utf8')).map((link) => link.target)).toContain(
      guide,
    );
    expect(readFileSync(path.join(projectDir, guide), 'utf8').split('\n')[0]).toBe("# Remote teams' guide");
    const report = await checkDocLinks(projectDir);
    expect(report.problems.map(formatProblem)).toEqual([]);
    expect(report.checkedLinks).toBeGreaterThan(0);
  });

  it("passes its slot tests, and a slot test given a wrong prop fails npm test with the schema's message", () => {
    expect(inProject('npm', ['test'])).toBeDefined();
    const wrong = path.join(projectDir, 'components', 'Wrong.test.tsx');
    writeFileSync(
      wrong,
      `import { renderSlot } from '@slots-platform/remote-kit/testing';
import remote from '../remote';
import { Hello } from './Hello';

it('renders Hello with a number for a name', async () => {
  await renderSlot(remote, 'Hello', Hello, { location: 'dashboard-before-cards', props: { name: 42 } });
});
`,
    );
    try {
      const result = spawnSync('npm', ['test'], { cwd: projectDir, encoding: 'utf8' });
      expect(result.status).not.toBe(0);
      const output = result.stdout + result.stderr;
      expect(output).toMatch(/Hello at dashboard-before-cards failed \(props-invalid\)/);
      expect(output).toMatch(/props\.name/);
      expect(output).toMatch(/Tests:\s+1 failed, \d+ passed/);
    } finally {
      rmSync(wrong);
    }
  });

  it('builds for production', () => {
    inProject('npm', ['run', 'build']);
    expect(existsSync(path.join(projectDir, 'dist', 'mf-manifest.json'))).toBe(true);
  });
});

describe('npm run dev: the host emulator', () => {
  let origin = '';
  beforeAll(async () => {
    const port = await getFreePort();
    dev = await startProjectDevServer(projectDir, REMOTE, port);
    origin = `http://127.0.0.1:${port}`;
  });

  async function emulatorPage(query: Record<string, string>): Promise<{ page: Page; log: PageLog }> {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const log = recordPage(page);
    await page.goto(`${origin}/?${new URLSearchParams(query).toString()}`);
    return { page, log };
  }

  it('answers GET / with its HTML page', async () => {
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('<div id="emulator">');
  });

  it('renders Hello at the location chosen, with the props given, and reloads on save', async () => {
    const { page, log } = await emulatorPage({
      component: 'Hello',
      location: 'dashboard-before-cards',
      props: JSON.stringify({ name: REMOTE }),
    });
    const slot = page.locator('[data-slot-location="dashboard-before-cards"] [data-slot-component="Hello"]');
    await slot.getByText(`Hello, ${REMOTE}`).waitFor();

    // Props edited in the page that break the schema: the product's props check stops the slot and says why.
    await page.locator('textarea[name="props"]').fill('{ "name": 7 }');
    await page.locator('[data-slot-component="Hello"][data-slot-failed="props-invalid"]').waitFor();
    await page.locator('textarea[name="props"]').fill(JSON.stringify({ name: REMOTE }));
    await slot.getByText(`Hello, ${REMOTE}`).waitFor();

    // A protected location, signed out: the product would not render it.
    await page.locator('input[name="signedIn"]').uncheck();
    await page
      .locator('[data-not-shown]')
      .getByText(/protected location/)
      .waitFor();
    await page.locator('input[name="signedIn"]').check();
    await slot.getByText(`Hello, ${REMOTE}`).waitFor();

    // The sign-in sidebar on a narrow screen: not rendered (the product's media rule); wide, it is.
    await page.locator('select[name="location"]').selectOption('login-sidebar');
    await page.locator('[data-slot-location="login-sidebar"] [data-slot-component="Hello"]').waitFor();
    await page.locator('select[name="width"]').selectOption('narrow');
    await page
      .locator('[data-not-shown]')
      .getByText(/min-width: 1024px/)
      .waitFor();
    await page.locator('select[name="width"]').selectOption('wide');
    await page.locator('select[name="location"]').selectOption('dashboard-before-cards');
    await slot.getByText(`Hello, ${REMOTE}`).waitFor();

    const component = path.join(projectDir, 'components', 'Hello.tsx');
    const original = readFileSync(component, 'utf8');
    try {
      writeFileSync(component, original.replace('Hello, {name}', 'Good day, {name}'));
      await slot.getByText(`Good day, ${REMOTE}`).waitFor({ timeout: 30_000 });
    } finally {
      writeFileSync(component, original);
    }
    expect(log.pageErrors).toEqual([]);
    await page.context().close();
  });

  it('says that the component its address asks is not declared, shows the first, and logs no error', async () => {
    const { page, log } = await emulatorPage({ component: 'Nope', location: 'dashboard-before-cards' });
    await page
      .locator('[data-unknown-component]')
      .getByText('The address asks for the component "Nope", which remote.ts does not declare (its components:')
      .waitFor();
    await page.locator('[data-slot-component="Hello"]').waitFor();
    // Said until another component is chosen.
    await page.locator('select[name="component"]').selectOption('Hello');
    await page.locator('[data-unknown-component]').waitFor({ state: 'detached' });
    // Nothing in the console: no icon asked of a server that has none.
    expect(log.pageErrors).toEqual([]);
    expect(log.console.filter((message) => message.type === 'error')).toEqual([]);
    expect(log.requests.filter((request) => request.path.startsWith('/favicon'))).toEqual([]);
    await page.context().close();
  });

  it('gives a form component a live form context: it reads the form and writes into it', async () => {
    const { page, log } = await emulatorPage({
      component: 'Shout',
      location: 'form',
      props: JSON.stringify({ field: 'title' }),
    });
    const shout = page.locator('[data-form-slot="Shout"] button.shout');
    await shout.getByText('Shout First article').waitFor();
    const title = page.locator('[data-emulated-form] input[name="title"]');
    await title.fill('draft');
    await shout.getByText('Shout draft').waitFor();
    await shout.click();
    await page.waitForFunction(
      () => (document.querySelector('[data-emulated-form] input[name="title"]') as HTMLInputElement).value === 'DRAFT',
    );
    expect(log.pageErrors).toEqual([]);
    await page.context().close();
  });
});
