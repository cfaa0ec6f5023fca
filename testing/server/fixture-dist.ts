import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REMOTE_DESCRIPTOR_FILE, REMOTE_HINTS_MARKER, type RemoteDescriptorFile } from '../../shared';
import { fakeManifest } from '../fake-manifest';

/** The chunk file the fixture writes for an exposed component. */
export function exposeChunk(component: string): string {
  return `__federation_expose_${component}.0123abcd45.js`;
}

/** A real, temporary build output folder for router tests: remotes and a host, written as the build writes them. */
export interface FixtureDist {
  readonly dir: string;
  /**
   * Writes `remotes/<name>/` with descriptor, manifest exposing `exposed` (default: the components), the entry and
   * one chunk per exposed component (`__federation_expose_<Name>.0123abcd45.js`, listed as its sync asset). The entry
   * is `remoteEntry.js` (a development build's name) unless `entryFile` names another (a production build's hashed one).
   */
  addRemote(
    descriptor: RemoteDescriptorFile,
    options?: { exposed?: string[]; manifest?: boolean; entryFile?: string },
  ): string;
  /**
   * Writes `host/index.html` and one hashed asset; `remoteHints`: the index.html of a federated host build, with the
   * `<meta name="slots-remote-hints">` element where the server adds the remote hints and boot data.
   */
  addHost(options?: { remoteHints?: boolean }): void;
  write(relative: string, content: string): string;
  remove(): void;
}

export function createFixtureDist(): FixtureDist {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slots-dist-'));
  const write = (relative: string, content: string) => {
    const file = path.join(dir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  return {
    dir,
    write,
    addRemote(descriptor, options = {}) {
      const base = `remotes/${descriptor.name}`;
      write(`${base}/${REMOTE_DESCRIPTOR_FILE}`, JSON.stringify(descriptor));
      if (options.manifest !== false) {
        const exposed = options.exposed ?? descriptor.components;
        write(
          `${base}/mf-manifest.json`,
          JSON.stringify(
            fakeManifest(descriptor.name, exposed, { chunkOf: exposeChunk, entryFile: options.entryFile }),
          ),
        );
      }
      write(`${base}/${options.entryFile ?? 'remoteEntry.js'}`, `var ${descriptor.name} = {};`);
      for (const name of options.exposed ?? descriptor.components) write(`${base}/${exposeChunk(name)}`, '/* chunk */');
      return path.join(dir, base);
    },
    addHost(options = {}) {
      const marker = options.remoteHints ? `<meta name=${REMOTE_HINTS_MARKER}>` : '';
      write(
        'host/index.html',
        `<!doctype html><html><head><title>Slots Admin</title><script defer src="/assets/main.89abcdef01.js"></script>${marker}</head><body><div id="root"></div></body></html>`,
      );
      write('host/assets/main.89abcdef01.js', 'console.log("host");');
    },
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
