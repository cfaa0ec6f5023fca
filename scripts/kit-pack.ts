/**
 * `npm run kit:pack [-- <destination>]`: compiles the remote kit (remotes/kit/, with the parts of shared/ and
 * build/ it imports) to JavaScript and declarations, and packs it with `npm pack` into `<destination>`
 * (`dist/kit/` by default) as `slots-platform-remote-kit-<version>.tgz`, the version of remotes/kit/package.json
 * (CHANGELOG.md says how it is chosen). `npm run remote:new` copies the tarball into each new project.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT_DIR = path.resolve(__dirname, '..');
export const KIT_DIR = path.join(ROOT_DIR, 'remotes', 'kit');

/** Where the compiled kit lies in the package: the repository's folder layout is kept under lib/. */
const COMPILED_KIT = './lib/remotes/kit';

/** The kit's package.json in the repository: its entry points are the TypeScript sources. */
export interface KitManifest {
  name: string;
  version: string;
  main: string;
  types: string;
  exports: Record<string, string>;
  bin: Record<string, string>;
  [field: string]: unknown;
}

export function readKitManifest(dir = KIT_DIR): KitManifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as KitManifest;
}

/** `@slots-platform/remote-kit` 0.2.0 -> `slots-platform-remote-kit-0.2.0.tgz`, the name `npm pack` gives it. */
export function kitTarballName(manifest: Pick<KitManifest, 'name' | 'version'>): string {
  return `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;
}

/**
 * The package.json that ships: each source entry point (`./index.ts`) becomes its compiled file and declaration
 * under lib/. In the repository the kit's entry points are its sources, which exist: a `main` pointing at a lib/
 * that only exists while packing made Node warn (DEP0128) wherever the repository loads the kit's folder.
 */
export function packedManifest(source: KitManifest): KitManifest {
  const compiled = (entry: string, extension: '.js' | '.d.ts') => {
    if (!/^\.\/[\w-]+\.ts$/.test(entry)) throw new Error(`The kit's entry point ${entry} is not ./<file>.ts`);
    return `${COMPILED_KIT}/${entry.slice(2, -'.ts'.length)}${extension}`;
  };
  const exports: Record<string, string | { types: string; default: string }> = {};
  for (const [subpath, entry] of Object.entries(source.exports)) {
    exports[subpath] = entry.endsWith('.ts')
      ? { types: compiled(entry, '.d.ts'), default: compiled(entry, '.js') }
      : entry;
  }
  const bin = Object.fromEntries(Object.entries(source.bin).map(([name, entry]) => [name, compiled(entry, '.js')]));
  return {
    ...source,
    main: compiled(source.main, '.js'),
    types: compiled(source.types, '.d.ts'),
    exports: exports as KitManifest['exports'],
    bin,
  };
}

/**
 * Builds and packs the kit into `destination`; returns the tarball's file name. The package is assembled in a
 * temporary folder (compiled lib/, the packed package.json, the changelog): nothing is written into remotes/kit/.
 */
export function packKit(destination: string): string {
  const staging = mkdtempSync(path.join(os.tmpdir(), 'slots-kit-pack-'));
  try {
    execFileSync(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.package.json', '--outDir', path.join(staging, 'lib')],
      { cwd: KIT_DIR, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const manifest = packedManifest(readKitManifest());
    writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    copyFileSync(path.join(KIT_DIR, 'CHANGELOG.md'), path.join(staging, 'CHANGELOG.md'));
    mkdirSync(destination, { recursive: true });
    const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
      cwd: staging,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [packed] = JSON.parse(output) as Array<{ filename: string }>;
    if (!packed) throw new Error('npm pack reported no file');
    if (packed.filename !== kitTarballName(manifest)) {
      throw new Error(`npm pack wrote ${packed.filename}, not ${kitTarballName(manifest)}`);
    }
    return packed.filename;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const destination = path.resolve(process.argv[2] ?? path.join(ROOT_DIR, 'dist', 'kit'));
  console.log(`Packed ${path.join(destination, packKit(destination))}`);
}
