import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../temp-dir';
import { IMAGES_AHEAD_VARIABLE, waitForImagesBuiltAhead } from './images-built-ahead';

describe('waiting for the images .ci/run builds in the background', () => {
  let folder: TempDir;
  const before = process.env[IMAGES_AHEAD_VARIABLE];

  beforeEach(() => {
    folder = makeTempDir('slots-images-ahead-test-');
    process.env[IMAGES_AHEAD_VARIABLE] = folder.path;
    fs.writeFileSync(path.join(folder.path, 'log'), 'debootstrap: retrieving\n');
  });

  afterEach(() => {
    folder.remove();
    if (before === undefined) delete process.env[IMAGES_AHEAD_VARIABLE];
    else process.env[IMAGES_AHEAD_VARIABLE] = before;
  });

  it('does not wait when no job was started', async () => {
    delete process.env[IMAGES_AHEAD_VARIABLE];
    await expect(waitForImagesBuiltAhead({ limitMs: 0 })).resolves.toBeUndefined();
  });

  it('resolves once the job has ended well, not before', async () => {
    const lines: string[] = [];
    let ended = false;
    const waiting = waitForImagesBuiltAhead({ log: (line) => lines.push(line), pollMs: 10 }).then(() => {
      ended = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(false);
    fs.writeFileSync(path.join(folder.path, 'exit-code'), '0\n');
    await waiting;
    expect(lines[0]).toContain(path.join(folder.path, 'log'));
  });

  it('fails with the end of the log when the job failed', async () => {
    fs.writeFileSync(path.join(folder.path, 'exit-code'), '1\n');
    await expect(waitForImagesBuiltAhead()).rejects.toThrow(/failed \(exit code 1\)[\s\S]*debootstrap: retrieving/);
  });

  it('fails, saying what it waited for, when the job has not ended within the limit', async () => {
    await expect(waitForImagesBuiltAhead({ limitMs: 30, pollMs: 10 })).rejects.toThrow(
      /not ready within [\d.]+ minutes[\s\S]*debootstrap: retrieving/,
    );
  });
});
