/**
 * The `mf-manifest.json` a remote build writes, with the fields the Module Federation runtime and the server read:
 * a container of `global` type whose entry is `remoteEntry.js` (or `entryFile`, e.g. a production build's
 * `remoteEntry.<hash>.js`), exposing `./<Component>` for each component. `chunkOf` names the JavaScript file that
 * holds a component (listed as its sync asset), where a test needs one.
 */
export function fakeManifest(
  name: string,
  components: readonly string[],
  options: { chunkOf?: (component: string) => string; entryFile?: string } = {},
) {
  return {
    id: name,
    name,
    metaData: {
      name,
      type: 'app',
      buildInfo: { buildVersion: '1.0.0', buildName: name },
      remoteEntry: { name: options.entryFile ?? 'remoteEntry.js', path: '', type: 'global' },
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
      assets: {
        js: { sync: options.chunkOf ? [options.chunkOf(component)] : [], async: [] },
        css: { sync: [], async: [] },
      },
    })),
  };
}
