/**
 * The React a remote is built and tested with. The host shares its React with every remote as a singleton and
 * renders the remote's components with it, never with the remote's own copy: a project on another React builds and
 * passes its tests on its own React, then fails on every page (React 18 components under the host's React 19:
 * `s.render is not a function`). So the kit's build ({@link SharedReactVersionPlugin}) and its slot tests
 * (`renderSlot`) refuse a project whose React the host's range does not cover. Browser-safe: no Node module here.
 */

/** React's version range host and remotes agree on; the host provides it, a remote never loads its own copy. */
export const SHARED_REACT_RANGE = '^19.2.0';

/** The packages of React a project installs, checked against {@link SHARED_REACT_RANGE}. */
export const SHARED_REACT_PACKAGES = ['react', 'react-dom'] as const;

export type SharedReactPackage = (typeof SHARED_REACT_PACKAGES)[number];

/** Each package's installed version; `undefined` for one that is not installed. */
export type InstalledReact = Readonly<Record<SharedReactPackage, string | undefined>>;

const CARET_RANGE = /^\^(\d+)\.(\d+)\.(\d+)$/;
const VERSION = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * Whether `version` is in `range`, by semver's rules for a caret range `^major.minor.patch`, the one form
 * {@link SHARED_REACT_RANGE} takes (the kit depends on no semver package: its slot tests run in the team's Jest).
 * A prerelease (`19.3.0-canary-…`) is in no such range, as in semver. Any other form of range throws, so a change of
 * the range to a form this does not know fails the kit's own tests instead of passing every version.
 */
export function satisfiesCaretRange(version: string, range: string): boolean {
  const bounds = CARET_RANGE.exec(range);
  if (!bounds) throw new Error(`"${range}" is not a range of the form ^major.minor.patch`);
  const parts = VERSION.exec(version.trim());
  if (!parts || parts[4] !== undefined) return false;
  const [major, minor, patch] = parts.slice(1, 4).map(Number) as [number, number, number];
  const [lowMajor, lowMinor, lowPatch] = bounds.slice(1, 4).map(Number) as [number, number, number];
  const atLeast = major !== lowMajor ? major > lowMajor : minor !== lowMinor ? minor > lowMinor : patch >= lowPatch;
  if (!atLeast) return false;
  // Below the next version of the range's first part that is not zero: ^19.2.0 < 20.0.0, ^0.3.1 < 0.4.0.
  if (lowMajor > 0) return major === lowMajor;
  if (lowMinor > 0) return major === 0 && minor === lowMinor;
  return major === 0 && minor === 0 && patch === lowPatch;
}

/** What `npm install` puts the project on the host's React. */
export function sharedReactInstallCommand(range = SHARED_REACT_RANGE): string {
  return `npm install ${SHARED_REACT_PACKAGES.map((name) => `${name}@${range}`).join(' ')}`;
}

/**
 * Why the project's React cannot run in the product (the installed and the required versions, and the command that
 * fixes it), or undefined when every package is in the range. The build and the slot tests say the same.
 */
export function sharedReactMismatch(installed: InstalledReact, range = SHARED_REACT_RANGE): string | undefined {
  const wrong = SHARED_REACT_PACKAGES.filter((name) => {
    const version = installed[name];
    return version === undefined || !satisfiesCaretRange(version, range);
  });
  if (wrong.length === 0) return undefined;
  const found = SHARED_REACT_PACKAGES.map((name) => `${name} ${installed[name] ?? '(not installed)'}`).join(', ');
  return (
    `This project has ${found}, but the product renders every remote's components with its own React, ` +
    `${range} (shared with remotes as a singleton; a remote's own React is never loaded), so a build or test on ` +
    `another version is not what runs. Install React ${range}: ${sharedReactInstallCommand(range)}`
  );
}
