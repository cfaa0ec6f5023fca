/**
 * What the kit's package carries besides its code. Where `slots-remote new` takes a project's parts from: the kit's own package (from a tarball run with `npm exec`,
 * or from a registry), with no product checkout on the machine. The template and the dependency versions were put
 * into the package when it was packed (scripts/kit-pack.ts); the kit's tarball is the package packed again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGED_TEMPLATE_FOLDER, PACKAGED_VERSIONS_FILE, type ProjectSource } from './new-project';

/** The folder of the host emulator's build in the kit's package (built when packed: scripts/kit-emulator.ts). */
export const PACKAGED_EMULATOR_FOLDER = 'emulator';

/**
 * The product's remote teams' guide in the kit's package, at its path in the product's repository, with the pages of
 * docs/ it links to (scripts/kit-guide.ts): a team with the tarball alone reads it in
 * `node_modules/@slots-platform/remote-kit/`, the guide of the kit it has installed.
 */
export const PACKAGED_GUIDE_FILE = 'docs/remote-teams.md';

const KIT_PACKAGE_NAME = '@slots-platform/remote-kit';

/** The folder of the kit's package.json, above this file (lib/remotes/kit/ in the package). */
function kitPackageRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === KIT_PACKAGE_NAME
    ) {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`No package.json of ${KIT_PACKAGE_NAME} above ${from}`);
  }
}

/** The kit's version (its package.json's), written into each build's descriptor: releases keep which kit built them. */
export function kitVersion(): string {
  const manifest = path.join(kitPackageRoot(), 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The host emulator's build in the kit's package (`slots-remote dev` serves it); undefined in the kit's sources. */
export function packagedEmulatorDir(): string | undefined {
  const dir = path.join(kitPackageRoot(), PACKAGED_EMULATOR_FOLDER);
  return existsSync(path.join(dir, 'index.html')) ? dir : undefined;
}

export function packagedProjectSource(): ProjectSource {
  const root = kitPackageRoot();
  const versionsFile = path.join(root, PACKAGED_VERSIONS_FILE);
  if (!existsSync(versionsFile)) {
    throw new Error(
      `${root} is the kit's source, not its package: in the product's repository, run npm run remote:new instead.`,
    );
  }
  return {
    templateDir: path.join(root, PACKAGED_TEMPLATE_FOLDER),
    versions: JSON.parse(readFileSync(versionsFile, 'utf8')) as Record<string, string>,
    // `npm pack` of the installed package gives back the package it was installed from (its files are all listed
    // in package.json): the same tarball, from the npm cache of `npm exec` or a registry's install alike.
    writeKitTarball(destination) {
      const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const [packed] = JSON.parse(output) as Array<{ filename: string }>;
      if (!packed) throw new Error('npm pack reported no file');
      return packed.filename;
    },
  };
}
