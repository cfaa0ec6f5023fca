/**
 * @jest-environment node
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Stats } from 'webpack';
import { buildRemoteProject } from '../../testing/build-remote-project';
import { COMPONENTS_CHUNK_NAME, reactRouterProductionAliases, REMOTE_BUDGET_ADVICE } from './webpack';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');

describe('reactRouterProductionAliases', () => {
  it("points a production build at React Router's production files, which exist", () => {
    const aliases = reactRouterProductionAliases('production', ROOT);
    expect(Object.keys(aliases).sort()).toEqual(['react-router$', 'react-router/dom$']);
    for (const file of Object.values(aliases)) {
      expect(file).toMatch(/react-router[\\/]dist[\\/]production[\\/][a-z-]+\.mjs$/);
      expect(existsSync(file)).toBe(true);
    }
  });

  it('leaves a development build, and a folder without React Router, to the package exports', () => {
    expect(reactRouterProductionAliases('development', ROOT)).toEqual({});
    expect(reactRouterProductionAliases('production', path.parse(ROOT).root)).toEqual({});
  });
});

describe("a remote's budgets (one chunk for every component)", () => {
  let project: string;

  beforeEach(() => {
    project = mkdtempSync(path.join(os.tmpdir(), 'slots-remote-budgets-'));
    mkdirSync(path.join(project, 'components'));
    for (const name of ['Alerter', 'Badge']) {
      writeFileSync(path.join(project, 'components', `${name}.tsx`), `export function ${name}() { return null; }\n`);
    }
    // Base64 of random bytes: about 40 KB gzip, twice a component's budget, whichever component imports it.
    const rows = JSON.stringify(randomBytes(30 * 1024).toString('base64'));
    writeFileSync(path.join(project, 'components', 'huge-table.ts'), `export const table = ${rows};\n`);
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  function build(huge: string): Promise<Stats> {
    writeFileSync(path.join(project, 'components', 'Huge.tsx'), huge);
    return buildRemoteProject(project, {
      name: 'fixture_budgets',
      components: ['Alerter', 'Badge', 'Huge'],
      formComponents: [],
    });
  }

  it('reports a large module in the components chunk once, naming it, the components and what a team can do', async () => {
    const stats = await build("import { table } from './huge-table';\nexport function Huge() { return table; }\n");
    const messages = stats.compilation.errors.map((error) => error.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^Bundle budget exceeded: components\.[0-9a-f]{10}\.js alone is \d+\.\d KB gzip, over the 20\.0 KB budget of fixture_budgets exposed component Alerter and of the 2 others that load it \(Badge, Huge\): one message for all 3\./,
    );
    expect(messages[0]).toMatch(
      /Largest modules in it \(source size, before minification and gzip\): \.\/components\/huge-table\.ts 41\.\d KB, /,
    );
    expect(messages[0]).toContain(REMOTE_BUDGET_ADVICE);
  });

  it('leaves a module one component loads with import() out of the components chunk and of the budgets', async () => {
    const stats = await build(
      "export async function rows() { return (await import('./huge-table')).table.length; }\n" +
        'export function Huge() { return null; }\n',
    );
    expect(stats.compilation.errors).toEqual([]);
    const components = [...stats.compilation.chunks].find((chunk) => chunk.name === COMPONENTS_CHUNK_NAME);
    const inComponents = [...stats.compilation.chunkGraph.getChunkModulesIterable(components!)].map((module) =>
      module.nameForCondition(),
    );
    expect(inComponents).toContain(path.join(project, 'components', 'Huge.tsx'));
    expect(inComponents).not.toContain(path.join(project, 'components', 'huge-table.ts'));
  });
});
