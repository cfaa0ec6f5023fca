import { manifestExposeNames } from './manifest-remote-entry';
import fs from 'node:fs';
import path from 'node:path';
import { REMOTE_DESCRIPTOR_FILE, type JsonSchema, type RemoteDescriptor } from '../../shared';
import { parseRemoteDescriptorFile } from './remote-names';
import { RemotesConfigError } from '../config/remotes-config-error';

/** The manifest every remote build writes; the host loads the remote from it. */
export const MANIFEST_FILE = 'mf-manifest.json';

/** Where this server serves the remotes it finds in `<distDir>/remotes/<name>/`. */
export function builtRemoteEntry(name: string): string {
  return `/remotes/${name}/${MANIFEST_FILE}`;
}

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new RemotesConfigError(`Cannot read ${what} ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RemotesConfigError(`${what} ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The expose names (`Callout`, not `./Callout`) of a federation manifest. */
function manifestExposes(manifest: unknown, file: string): Set<string> {
  const names = manifestExposeNames(manifest);
  if (names === null) throw new RemotesConfigError(`${file} has no "exposes" list; is it a federation manifest?`);
  return names;
}

/** A remote built here: what the host is told, and the props schemas of its descriptor (for the server's checks). */
export interface BuiltRemote {
  descriptor: RemoteDescriptor;
  props: Record<string, JsonSchema>;
}

/**
 * The remotes built into `<distDir>/remotes/*`: each folder holding a `slots-remote.json` (written by the remote's
 * own build from its descriptor) beside its `mf-manifest.json`. The descriptor must match its folder and every
 * declared component must be exposed by the manifest, so what is listed is what can load.
 */
export function findBuiltRemotes(distDir: string): BuiltRemote[] {
  const root = path.join(distDir, 'remotes');
  let folders: fs.Dirent[];
  try {
    folders = fs.readdirSync(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new RemotesConfigError(`Cannot list ${root}: ${(error as Error).message}`);
  }
  const remotes: BuiltRemote[] = [];
  for (const folder of folders.filter((entry) => entry.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = path.join(root, folder.name);
    const descriptorFile = path.join(dir, REMOTE_DESCRIPTOR_FILE);
    if (!fs.existsSync(descriptorFile)) continue; // not a remote built by this repository
    const where = descriptorFile;
    const { name, components, formComponents, props } = parseRemoteDescriptorFile(
      readJson(descriptorFile, 'Remote descriptor'),
      where,
    );
    if (name !== folder.name) {
      throw new RemotesConfigError(`${where} names remote "${name}" but sits in folder "${folder.name}"; rebuild it.`);
    }

    const manifestFile = path.join(dir, MANIFEST_FILE);
    if (!fs.existsSync(manifestFile)) {
      throw new RemotesConfigError(
        `Remote "${name}" has ${REMOTE_DESCRIPTOR_FILE} but no ${MANIFEST_FILE} in ${dir}; rebuild it.`,
      );
    }
    const exposed = manifestExposes(readJson(manifestFile, 'Federation manifest'), manifestFile);
    const notExposed = components.filter((component) => !exposed.has(component));
    if (notExposed.length > 0) {
      throw new RemotesConfigError(
        `Remote "${name}" declares components its build does not expose: ${notExposed.join(', ')} ` +
          `(${manifestFile}); rebuild it.`,
      );
    }
    remotes.push({
      descriptor: { name, entry: builtRemoteEntry(name), components, formComponents },
      props: props ?? {},
    });
  }
  return remotes;
}
