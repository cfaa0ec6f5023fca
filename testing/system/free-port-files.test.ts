import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FREE_PORT_MODULE, portNobodyHolds } from './free-port-other-runs';
import { REPO_ROOT } from './repo-root';
import { makeTempDir } from '../temp-dir';

/**
 * With `TEST_PORT_RANGE`, free-port.ts's reservations end with the test file that took them, whichever copy of the
 * module took them. Each case is a Jest run of its own, on a range of one port, with its files in one process one
 * after the other: a Jest worker's life.
 */
async function runJest(files: Record<string, string>, port: number): Promise<{ code: number | null; output: string }> {
  const folder = makeTempDir('slots-free-port-files-');
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(folder.path, name), text);
    const config = {
      rootDir: folder.path,
      testEnvironment: 'node',
      transform: { '^.+\\.ts$': require.resolve('@swc/jest', { paths: [REPO_ROOT] }) },
    };
    const jest = spawn(
      process.execPath,
      [require.resolve('jest/bin/jest', { paths: [REPO_ROOT] }), '--runInBand', '--config', JSON.stringify(config)],
      { cwd: folder.path, env: { ...process.env, TEST_PORT_RANGE: `${port}-${port}`, CI: '' }, stdio: 'pipe' },
    );
    let output = '';
    jest.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    jest.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => jest.once('exit', resolve));
    return { code, output };
  } finally {
    folder.remove();
  }
}

const passed = (count: number) => ({ code: 0, output: expect.stringContaining(`Tests:       ${count} passed`) });

/** Source text: loads a copy of free-port.ts of its own, as `jest.isolateModules` does. */
const isolatedCopy = `((): typeof import(${JSON.stringify(FREE_PORT_MODULE)}) => {
  let copy: typeof import(${JSON.stringify(FREE_PORT_MODULE)}) | undefined;
  jest.isolateModules(() => (copy = require(${JSON.stringify(FREE_PORT_MODULE)})));
  return copy!;
})`;

describe('free-port.ts in a Jest worker', () => {
  it("ends a test file's reservations after its last test, so that the next file in the worker has the port", async () => {
    const port = await portNobodyHolds();
    const file = `import { getFreePort } from ${JSON.stringify(FREE_PORT_MODULE)};
      it('gets the one port of its range', async () => expect(await getFreePort()).toBe(${port}));`;
    expect(await runJest({ 'a.test.ts': file, 'b.test.ts': file }, port)).toEqual(passed(2));
  }, 60_000);

  it("ends the reservations of a copy loaded in a test (jest.isolateModules) with its file, as the file's own", async () => {
    const port = await portNobodyHolds();
    // No copy of the file's own, so no hook: the port stays taken in the first file, and the second gets it.
    const file = `it('gets the one port of its range in a copy of its own, and keeps it', async () =>
      expect(await ${isolatedCopy}().getFreePort()).toBe(${port}));`;
    expect(await runJest({ 'a.test.ts': file, 'b.test.ts': file }, port)).toEqual(passed(2));
  }, 60_000);

  it('shares the reservations between copies: none hands out a port another holds, each takes one given back', async () => {
    const port = await portNobodyHolds();
    const file = `import { getFreePort, releasePort } from ${JSON.stringify(FREE_PORT_MODULE)};
      const noFreePort = 'No free port on 127.0.0.1 from ${port} to ${port}.';
      it('hands the port one copy gave back out from another', async () => {
        const copy = ${isolatedCopy}();
        expect(await copy.getFreePort()).toBe(${port});
        await expect(getFreePort()).rejects.toThrow(noFreePort);
        copy.releasePort(${port});
        expect(await getFreePort()).toBe(${port});
        await expect(copy.getFreePort()).rejects.toThrow(noFreePort);
      });
      it('does so with a copy loaded after jest.resetModules', async () => {
        releasePort(${port});
        jest.resetModules();
        const copy: typeof import(${JSON.stringify(FREE_PORT_MODULE)}) = require(${JSON.stringify(FREE_PORT_MODULE)});
        expect(await copy.getFreePort()).toBe(${port});
        await expect(getFreePort()).rejects.toThrow(noFreePort);
      });`;
    expect(await runJest({ 'a.test.ts': file }, port)).toEqual(passed(2));
  }, 60_000);
});
