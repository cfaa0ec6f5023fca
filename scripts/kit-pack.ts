/**
 * `npm run kit:pack [-- <destination>]`: compiles the remote kit (remotes/kit/, with the parts of shared/ and
 * build/ it imports) to JavaScript and declarations, and packs it with `npm pack` into `<destination>`
 * (`dist/kit/` by default) as `slots-platform-remote-kit-<version>.tgz`, the version of remotes/kit/package.json
 * (CHANGELOG.md says how it is chosen), with the template and the dependency versions of new projects, so the
 * package's `slots-remote new` needs nothing else, the host emulator's build (scripts/kit-emulator.ts) and the remote
 * teams' guide (scripts/kit-guide.ts). `npm run remote:new` copies the tarball into each new project.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGED_TEMPLATE_FOLDER, PACKAGED_VERSIONS_FILE, PROJECT_PACKAGES } from '../remotes/kit/new-project';
import { PACKAGED_EMULATOR_FOLDER } from '../remotes/kit/packaged-files';
import { writePackagedGuide } from './kit-guide';

const ROOT_DIR = path.resolve(__dirname, '..');
export const KIT_DIR = path.join(ROOT_DIR, 'remotes', 'kit');
/** The package's README.md, in remotes/kit/ under another name: its links lead into the package, not the repository. */
const PACKAGE_README_SOURCE = 'package-readme.md';

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
 * The versions this repository builds and tests with, of the packages every new project lists: written into the
 * package, so `slots-remote new` starts a project on them with no repository at hand.
 */
export function repositoryVersions(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  return Object.fromEntries(
    [...PROJECT_PACKAGES.dependencies, ...PROJECT_PACKAGES.devDependencies].map((name) => {
      const version = all[name];
      if (version === undefined) throw new Error(`package.json of the repository has no ${name}`);
      return [name, version];
    }),
  );
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
  // The repository's own scripts are not the package's: its prepack refuses a plain `npm pack` of remotes/kit/.
  const { scripts: _repositoryScripts, ...shipped } = source;
  return {
    ...shipped,
    main: compiled(source.main, '.js'),
    types: compiled(source.types, '.d.ts'),
    exports: exports as KitManifest['exports'],
    bin,
  };
}

/**
 * Builds and packs the kit into `destination`; returns the tarball's file name. The package is assembled in a
 * temporary folder (compiled lib/, the packed package.json, its README, the changelog, the guide, the template and
 * the versions of new projects): nothing is written into remotes/kit/.
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
    // The package's own page (what a registry or a look into node_modules shows first), its commands naming this
    // version's tarball.
    const readme = readFileSync(path.join(KIT_DIR, PACKAGE_README_SOURCE), 'utf8');
    writeFileSync(path.join(staging, 'README.md'), readme.replaceAll('{{KIT_VERSION}}', manifest.version));
    // The remote teams' guide, which a team with the tarball alone has nowhere else (scripts/kit-guide.ts).
    writePackagedGuide(staging, manifest.version);
    // The host emulator `slots-remote dev` serves: the product's renderer, bundled (scripts/kit-emulator.ts).
    execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'kit-emulator.ts'), path.join(staging, PACKAGED_EMULATOR_FOLDER)],
      { cwd: ROOT_DIR, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    // What `slots-remote new` makes a project from, with no repository at hand.
    cpSync(path.join(KIT_DIR, 'template'), path.join(staging, PACKAGED_TEMPLATE_FOLDER), { recursive: true });
    writeFileSync(path.join(staging, PACKAGED_VERSIONS_FILE), `${JSON.stringify(repositoryVersions(), null, 2)}\n`);
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
