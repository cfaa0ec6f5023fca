/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs';
import {
  SHARED_REACT_RANGE,
  satisfiesCaretRange,
  sharedReactInstallCommand,
  sharedReactMismatch,
} from './shared-react';

describe('satisfiesCaretRange', () => {
  it.each([
    ['19.2.0', true],
    ['19.2.7', true],
    ['19.10.0', true],
    ['19.1.9', false],
    ['18.3.1', false],
    ['20.0.0', false],
    ['19.3.0-canary-1a2b3c-20260101', false],
    ['19.2.0+build.5', true],
    ['not a version', false],
  ])('%s in ^19.2.0: %s', (version, expected) => {
    expect(satisfiesCaretRange(version, '^19.2.0')).toBe(expected);
  });

  it("follows semver's caret for a leading zero", () => {
    expect(satisfiesCaretRange('0.3.5', '^0.3.1')).toBe(true);
    expect(satisfiesCaretRange('0.4.0', '^0.3.1')).toBe(false);
    expect(satisfiesCaretRange('0.0.3', '^0.0.3')).toBe(true);
    expect(satisfiesCaretRange('0.0.4', '^0.0.3')).toBe(false);
  });

  it('refuses a range of another form rather than judging by it', () => {
    expect(() => satisfiesCaretRange('19.2.0', '>=19')).toThrow('">=19" is not a range of the form ^major.minor.patch');
  });

  it('knows the form of the range the host shares, which covers the React the repository builds with', () => {
    const installed = (name: string) =>
      (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
    expect(satisfiesCaretRange(installed('react'), SHARED_REACT_RANGE)).toBe(true);
    expect(satisfiesCaretRange(installed('react-dom'), SHARED_REACT_RANGE)).toBe(true);
  });
});

describe('sharedReactMismatch', () => {
  it("names the installed and required versions and the command that fixes them (the tester's React 18)", () => {
    expect(sharedReactMismatch({ react: '18.3.1', 'react-dom': '18.3.1' }, '^19.2.0')).toBe(
      "This project has react 18.3.1, react-dom 18.3.1, but the product renders every remote's components with its " +
        "own React, ^19.2.0 (shared with remotes as a singleton; a remote's own React is never loaded), so a build or " +
        'test on another version is not what runs. Install React ^19.2.0: npm install react@^19.2.0 react-dom@^19.2.0',
    );
  });

  it('says when a package is not installed, and accepts versions in the range', () => {
    expect(sharedReactMismatch({ react: '19.2.0', 'react-dom': undefined })).toContain(
      'react 19.2.0, react-dom (not installed)',
    );
    expect(sharedReactMismatch({ react: '19.2.0', 'react-dom': '19.2.3' })).toBeUndefined();
    expect(sharedReactInstallCommand()).toBe(`npm install react@${SHARED_REACT_RANGE} react-dom@${SHARED_REACT_RANGE}`);
  });
});
