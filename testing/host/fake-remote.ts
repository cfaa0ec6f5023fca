/**
 * Tiny real remotes for federation tests (no network, no webpack): a federation manifest as a remote build writes
 * it, and a container object `{ init, get }` as remoteEntry.js would define it.
 */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

export { fakeManifest } from '../fake-manifest';

type RemoteEntry = Awaited<ReturnType<NonNullable<ModuleFederationRuntimePlugin['loadEntry']>>>;

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

/**
 * Jest hooks for a test file that runs the federation runtime: TestResponse as the global Response, and console.warn
 * silenced, since the runtime warns about every manifest that fails on purpose. Returns the current test's spy.
 */
export function useFederationTestEnvironment(): () => jest.SpyInstance {
  let uninstall: () => void = () => undefined;
  let warn: jest.SpyInstance | undefined;
  beforeAll(() => {
    uninstall = installTestResponse();
  });
  afterAll(() => uninstall());
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn?.mockRestore());
  return () => {
    if (!warn) throw new Error('console.warn is spied on inside a test only.');
    return warn;
  };
}

let sequence = 0;

/** A name no earlier test has used: the runtime caches manifests and entries globally, by name and URL. */
export function uniqueName(name: string): string {
  sequence += 1;
  return `${name}_${sequence}`;
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

/**
 * A runtime plugin that answers each remote's entry with its fake container (by remote name) through the runtime's
 * own loadEntry hook, instead of a remoteEntry.js script. A remote without one loads its script as usual.
 */
export function fakeContainersPlugin(
  containers: ReadonlyMap<string, FakeContainer>,
  extra: Omit<ModuleFederationRuntimePlugin, 'name' | 'loadEntry'> = {},
): ModuleFederationRuntimePlugin {
  return {
    ...extra,
    name: 'test-fake-containers',
    // Real containers' get() returns a promise of the factory, which the runtime awaits; its type says otherwise.
    loadEntry: ({ remoteInfo }) => containers.get(remoteInfo.name) as unknown as RemoteEntry | undefined,
  };
}
