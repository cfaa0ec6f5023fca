/**
 * Tiny real remotes for federation tests (no network, no webpack): a federation manifest as a remote build writes
 * it, and a container object `{ init, get }` as remoteEntry.js would define it.
 */

/** jsdom has no fetch Response; the federation runtime checks `instanceof Response`, so tests install this one. */
export class TestResponse {
  readonly ok: boolean;
  constructor(
    private readonly text: string,
    readonly status = 200,
  ) {
    this.ok = status >= 200 && status < 300;
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.text) as unknown;
  }
}

/** Installs TestResponse as the global Response (when the environment lacks one); returns the uninstaller. */
export function installTestResponse(): () => void {
  const holder = globalThis as { Response?: unknown };
  if (holder.Response !== undefined) return () => undefined;
  holder.Response = TestResponse;
  return () => {
    delete holder.Response;
  };
}

/** The `mf-manifest.json` a remote build emits (the fields the runtime reads). */
export function fakeManifest(name: string, components: readonly string[]) {
  const noAssets = { js: { sync: [], async: [] }, css: { sync: [], async: [] } };
  return {
    id: name,
    name,
    metaData: {
      name,
      type: 'app',
      buildInfo: { buildVersion: '1.0.0', buildName: name },
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      types: { path: '', name: '', zip: '', api: '' },
      globalName: name,
      pluginVersion: '2.9.2',
      publicPath: 'auto',
    },
    shared: [],
    remotes: [],
    exposes: components.map((component) => ({
      id: `${name}:${component}`,
      name: component,
      path: `./${component}`,
      assets: noAssets,
    })),
  };
}

export interface FakeContainer {
  init: jest.Mock<Promise<void>, unknown[]>;
  get: jest.Mock<Promise<() => unknown>, [string]>;
}

/** A container whose `get('./Name')` yields `modules[Name]`; an unknown expose rejects like a real container. */
export function fakeContainer(modules: Record<string, unknown>): FakeContainer {
  return {
    init: jest.fn(async () => undefined),
    get: jest.fn(async (expose: string) => {
      const name = expose.replace(/^\.\//, '');
      if (!(name in modules)) throw new Error(`Module "${expose}" does not exist in container.`);
      const module = modules[name];
      if (module instanceof Error) throw module;
      return () => module;
    }),
  };
}
