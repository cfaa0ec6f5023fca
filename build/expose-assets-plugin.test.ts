import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import webpack, { type Configuration, type Stats } from 'webpack';
import { remoteWebpackConfig } from '../remotes/kit/webpack';

jest.setTimeout(60_000);

const ROOT = path.join(__dirname, '..');

function compile(config: Configuration): Promise<Stats> {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
      else resolve(stats);
    });
  });
}

interface Manifest {
  metaData: { remoteEntry: { name: string } };
  exposes: Array<{ name: string; assets: { js: { sync: string[] } } }>;
}

describe("a remote's production build (remote kit preset)", () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'expose-assets-'));
    await mkdir(path.join(dir, 'components'));
    // Two components sharing a module of the remote's own: all three belong in the one components chunk.
    await writeFile(path.join(dir, 'shared-words.ts'), 'export const words = (name: string) => `Hello, ${name}`;\n');
    for (const name of ['Greeting', 'Farewell']) {
      await writeFile(
        path.join(dir, 'components', `${name}.tsx`),
        `import { words } from '../shared-words';\nexport default function ${name}() { return words('${name}'); }\n`,
      );
    }
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names its entry by content and lists the one components chunk for every exposed component', async () => {
    const outputPath = path.join(dir, 'dist');
    const stats = await compile(
      remoteWebpackConfig({
        remote: { name: 'fixture_words', components: ['Greeting', 'Farewell'], formComponents: [] },
        dir,
        mode: 'production',
        outputPath,
        extraModuleFolders: [path.join(ROOT, 'node_modules')],
        rootDir: dir,
      }),
    );
    expect(stats.toJson({ all: false, errors: true }).errors).toEqual([]);

    const manifest = JSON.parse(await readFile(path.join(outputPath, 'mf-manifest.json'), 'utf8')) as Manifest;
    const files = await readdir(outputPath);
    expect(manifest.metaData.remoteEntry.name).toMatch(/^remoteEntry\.[0-9a-f]{10}\.js$/);
    expect(files).toContain(manifest.metaData.remoteEntry.name);
    expect(files).not.toContain('remoteEntry.js');

    const components = files.filter((file) => /^components\.[0-9a-f]{10}\.js$/.test(file));
    expect(components).toHaveLength(1);
    expect(manifest.exposes.map((expose) => [expose.name, expose.assets.js.sync])).toEqual(
      expect.arrayContaining([
        ['Greeting', components],
        ['Farewell', components],
      ]),
    );
    // No chunk of its own per component any more: both live in the components chunk, with the module they share.
    expect(files.filter((file) => file.startsWith('__federation_expose_'))).toEqual([]);
    const source = await readFile(path.join(outputPath, components[0] ?? ''), 'utf8');
    expect(source).toContain('Hello, ');
  });
});
