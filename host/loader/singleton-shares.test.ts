import { createInstance } from '@module-federation/enhanced/runtime';
import { satisfy } from '@module-federation/runtime-core';
import { uniqueName, useFederationTestEnvironment } from '../../testing/host/fake-remote';
import { caretSatisfied, singletonSharesPlugin } from './singleton-shares';

useFederationTestEnvironment();

describe('caretSatisfied', () => {
  it.each([
    ['19.2.0', '^19.2.0'],
    ['19.2.3', '^19.2.0'],
    ['19.10.0', '^19.2.0'],
    ['0.2.5', '^0.2.3'],
    ['0.0.3', '^0.0.3'],
  ])('%s satisfies %s, as the runtime says', (version, range) => {
    expect(satisfy(version, range)).toBe(true);
    expect(caretSatisfied(version, range)).toBe(true);
  });

  it.each([
    ['18.3.1', '^19.2.0'],
    ['20.0.0', '^19.2.0'],
    ['19.1.9', '^19.2.0'],
    ['0.3.0', '^0.2.3'],
    ['0.0.4', '^0.0.3'],
  ])('%s does not satisfy %s: left to the runtime (which warns)', (version, range) => {
    expect(satisfy(version, range)).toBe(false);
    expect(caretSatisfied(version, range)).toBeUndefined();
  });

  it.each([
    ['19.2.0-rc.1', '^19.2.0'],
    ['19.2.0', '>=19.2.0'],
    ['19.2.0', '^19.2'],
    ['19.2.0', '^19.2.0 || ^20.0.0'],
  ])('leaves %s against %s to the runtime', (version, range) => {
    expect(caretSatisfied(version, range)).toBeUndefined();
  });
});

describe('singletonSharesPlugin', () => {
  function hostWithReact(version: string, plugins = [singletonSharesPlugin()]) {
    const lib = { version };
    return createInstance({
      name: uniqueName('shares_host'),
      remotes: [],
      plugins,
      shareStrategy: 'loaded-first',
      shared: {
        react: { version, lib: () => lib, shareConfig: { singleton: true, requiredVersion: '^19.2.0' } },
      },
    });
  }

  it('resolves a satisfied singleton to the copy in the share scope, as the runtime does', async () => {
    const withPlugin = hostWithReact('19.2.0');
    const without = hostWithReact('19.2.0', []);
    const custom = { shareConfig: { singleton: true, requiredVersion: '^19.2.0' } };
    const a = (withPlugin.loadShareSync('react', { customShareInfo: custom }) as () => { version: string })();
    const b = (without.loadShareSync('react', { customShareInfo: custom }) as () => { version: string })();
    expect(a).toEqual({ version: '19.2.0' });
    expect(b).toEqual(a);
    const loaded = (await withPlugin.loadShare<{ version: string }>('react')) as () => { version: string };
    expect(loaded()).toEqual({ version: '19.2.0' });
  });

  it('leaves an unsatisfied singleton to the runtime, which warns and still uses it', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const host = hostWithReact('18.3.1');
      const custom = { shareConfig: { singleton: true, requiredVersion: '^19.2.0' } };
      const react = (host.loadShareSync('react', { customShareInfo: custom }) as () => { version: string })();
      expect(react).toEqual({ version: '18.3.1' });
      expect(warn.mock.calls.flat().join(' ')).toMatch(/does not satisfy the requirement/);
    } finally {
      warn.mockRestore();
    }
  });

  it('answers a satisfied singleton itself, with what the runtime resolver would give', () => {
    const shared = { version: '19.2.0' };
    const args = {
      shareScopeMap: { default: { react: { '19.2.0': shared } } },
      scope: 'default',
      pkgName: 'react',
      version: '19.2.0',
      shareInfo: { shareConfig: { singleton: true, requiredVersion: '^19.2.0' } },
      resolver: () => undefined,
    };
    const answered = singletonSharesPlugin().resolveShare?.(args as never);
    expect(answered).not.toBe(args);
    expect(answered?.resolver()).toEqual({ shared, useTreesShaking: false });
    // No version required: the singleton as found.
    const anyVersion = { ...args, shareInfo: { shareConfig: { singleton: true, requiredVersion: false } } };
    expect(
      singletonSharesPlugin()
        .resolveShare?.(anyVersion as never)
        ?.resolver(),
    ).toEqual({
      shared,
      useTreesShaking: false,
    });
  });

  it('does not answer for shares that are not singletons', () => {
    const plugin = singletonSharesPlugin();
    const args = {
      shareScopeMap: { default: { lodash: { '4.0.0': {} } } },
      scope: 'default',
      pkgName: 'lodash',
      version: '4.0.0',
      shareInfo: { shareConfig: { singleton: false, requiredVersion: '^4.0.0' } },
      resolver: () => undefined,
    };
    expect(plugin.resolveShare?.(args as never)).toBe(args);
  });
});
