import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REMOTE_DESCRIPTOR_FILE, type RemoteBuildDescriptor } from '../../shared';

/** A real, temporary build output folder for router tests: remotes and a host, written as the build writes them. */
export interface FixtureDist {
  readonly dir: string;
  /** Writes `remotes/<name>/` with descriptor, manifest exposing `exposed` (default: the components) and files. */
  addRemote(descriptor: RemoteBuildDescriptor, options?: { exposed?: string[]; manifest?: boolean }): string;
  /** Writes `host/index.html` and one hashed asset. */
  addHost(): void;
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
          JSON.stringify({
            id: descriptor.name,
            name: descriptor.name,
            metaData: {
              name: descriptor.name,
              publicPath: 'auto',
              remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
            },
            shared: [],
            remotes: [],
            exposes: exposed.map((name) => ({ id: `${descriptor.name}:${name}`, name, path: `./${name}`, assets: {} })),
          }),
        );
      }
      write(`${base}/remoteEntry.js`, `var ${descriptor.name} = {};`);
      write(`${base}/__federation_expose_${descriptor.components[0] ?? 'X'}.0123abcd45.js`, '/* chunk */');
      return path.join(dir, base);
    },
    addHost() {
      write('host/index.html', '<!doctype html><title>Slots Admin</title><div id="root"></div>');
      write('host/assets/main.89abcdef01.js', 'console.log("host");');
    },
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
