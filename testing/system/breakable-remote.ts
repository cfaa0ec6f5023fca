import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The window event on which every mounted breakable component of the page throws in its next render. */
export const BREAK_COMPONENT_EVENT = 'slots-test:break';
/** Set on `window` before a page's scripts run: the breakable components break as soon as they are on screen. */
export const BREAK_ON_MOUNT_FLAG = '__slotsTestBreakOnMount';
/** What a breakable component throws. */
export const BROKEN_AFTER_RENDER_ERROR = 'The component broke after it rendered, on purpose';

const USE_STRICT = '"use strict";';

/** Prepended to the chunk's code: wraps a component once (a stable type, so React never remounts it for a new wrapper). */
const WRAPPER = `globalThis.__slotsTestBreakable = globalThis.__slotsTestBreakable || (function () {
  var wrapped = new WeakMap();
  return function (React, Inner) {
    var Outer = wrapped.get(Inner);
    if (Outer) return Outer;
    Outer = function (props) {
      var state = React.useState(false);
      var setBroken = state[1];
      React.useLayoutEffect(function () {
        // After the commit that put it on screen, in the same task: before the page's idle beacon.
        if (window[${JSON.stringify(BREAK_ON_MOUNT_FLAG)}] === true) setBroken(true);
        function onBreak() { setBroken(true); }
        window.addEventListener(${JSON.stringify(BREAK_COMPONENT_EVENT)}, onBreak);
        return function () { window.removeEventListener(${JSON.stringify(BREAK_COMPONENT_EVENT)}, onBreak); };
      }, []);
      if (state[0]) throw new Error(${JSON.stringify(BROKEN_AFTER_RENDER_ERROR)});
      return React.createElement(Inner, props);
    };
    wrapped.set(Inner, Outer);
    return Outer;
  };
})();
`;

interface FederationManifest {
  exposes: { name: string; assets: { js: { sync: string[] } } }[];
}

/**
 * Copies the built remote in `builtDir` to `into`, with `component` made breakable: it renders as built, then throws
 * in a later render once the page dispatches BREAK_COMPONENT_EVENT on `window` (or at once after its first commit
 * when `window[BREAK_ON_MOUNT_FLAG]` is true). A team's release whose component breaks once on screen, for the slot
 * events; everything else of the build is unchanged.
 *
 * The component's webpack module export (`<require>.d(exports, { <component>: () => <fn> })`) is pointed at a wrapper
 * given the React the chunk's other components use (the module id of the first `(0,x.useState)`'s `x = require(id)`):
 * the wrapper's hooks run on the host's shared React, as the component's own would.
 */
export async function copyWithBreakableComponent(builtDir: string, component: string, into: string): Promise<void> {
  await cp(builtDir, into, { recursive: true });
  const manifest = JSON.parse(await readFile(path.join(builtDir, 'mf-manifest.json'), 'utf8')) as FederationManifest;
  const chunk = manifest.exposes.find((expose) => expose.name === component)?.assets.js.sync.at(-1);
  if (chunk === undefined) throw new Error(`${builtDir}/mf-manifest.json names no chunk exposing ${component}.`);
  // Without its source map comment: the map no longer matches.
  const source = (await readFile(path.join(builtDir, chunk), 'utf8')).replace(/\n\/\/# sourceMappingURL=.*\s*$/, '');

  const hook = /\(0,([\w$]+)\.use(?:State|Effect|LayoutEffect)\)/.exec(source);
  const reactVariable = hook?.[1];
  const requires =
    reactVariable === undefined
      ? []
      : [
          ...source
            .slice(0, hook!.index)
            .matchAll(new RegExp(`[\\s,;]${escape(reactVariable)}=[\\w$]+\\((\\d+)\\)`, 'g')),
        ];
  const reactId = requires.at(-1)?.[1];
  const exported = new RegExp(`([\\w$]+)\\.d\\([\\w$]+,\\{(?:[^{}]*,)?${component}:\\(\\)=>([\\w$]+)`).exec(source);
  if (reactId === undefined || exported === null) {
    throw new Error(
      `${chunk} of ${builtDir} is not the webpack output this helper knows: no React module id found ` +
        `(${reactId ?? 'none'}) or no export of ${component} (${exported === null ? 'none' : 'found'}).`,
    );
  }
  const [match, requireName, inner] = exported;
  const rewired = match.replace(
    new RegExp(`${component}:\\(\\)=>[\\w$]+$`),
    `${component}:()=>globalThis.__slotsTestBreakable(${requireName}(${reactId}),${inner})`,
  );
  // The chunk's "use strict" stays its first statement, ahead of the wrapper.
  const strict = source.startsWith(USE_STRICT) ? USE_STRICT.length : 0;
  const patched =
    `${source.slice(0, strict)}\n${WRAPPER}${source.slice(strict, exported.index)}${rewired}` +
    source.slice(exported.index + match.length);
  await writeFile(path.join(into, chunk), patched);
}

function escape(name: string): string {
  return name.replace(/\$/g, '\\$');
}
