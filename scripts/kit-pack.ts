/**
 * `npm run kit:pack [-- <destination>]`: compiles the remote kit (remotes/kit/, with the parts of shared/ and
 * build/ it imports) to JavaScript and declarations, and packs it with `npm pack` into `<destination>`
 * (`dist/kit/` by default). `npm run remote:new` copies the tarball into each new project.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT_DIR = path.resolve(__dirname, '..');
export const KIT_DIR = path.join(ROOT_DIR, 'remotes', 'kit');

/**
 * Builds and packs the kit into `destination`; returns the tarball's file name. The compiled `lib/` exists only
 * while packing: left behind, it would be what `../../kit` resolves to (the kit's package.json points there) for
 * the in-repository remotes, the type check and webpack.config.ts, a stale copy of the source beside it.
 */
export function packKit(destination: string): string {
  const lib = path.join(KIT_DIR, 'lib');
  rmSync(lib, { recursive: true, force: true });
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.package.json'], {
      cwd: KIT_DIR,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    mkdirSync(destination, { recursive: true });
    const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
      cwd: KIT_DIR,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [packed] = JSON.parse(output) as Array<{ filename: string }>;
    if (!packed) throw new Error('npm pack reported no file');
    return packed.filename;
  } finally {
    rmSync(lib, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const destination = path.resolve(process.argv[2] ?? path.join(ROOT_DIR, 'dist', 'kit'));
  console.log(`Packed ${path.join(destination, packKit(destination))}`);
}
