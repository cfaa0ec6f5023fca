import fs from 'node:fs';
import os from 'node:os';
import { runSideBySide } from './lint';

const node = (name: string, script: string) => ({ name, command: process.execPath, args: ['-e', script] });

describe('the lint steps, side by side', () => {
  it('runs every step, keeps each one output and exit code, and tells of each as it ends', async () => {
    const ended: string[] = [];
    const results = await runSideBySide(
      [node('fails', 'console.error("a broken link"); process.exit(3)'), node('passes', 'console.log("all good")')],
      os.tmpdir(),
      (result) => ended.push(result.name),
    );
    expect(results.map(({ name, code, output }) => ({ name, code, output: output.trim() }))).toEqual([
      { name: 'fails', code: 3, output: 'a broken link' },
      { name: 'passes', code: 0, output: 'all good' },
    ]);
    expect(ended.sort()).toEqual(['fails', 'passes']);
  }, 60_000);

  it('starts them together: a step that waits for another one to have started ends', async () => {
    const marker = `${os.tmpdir()}/slots-lint-test-${process.pid}`;
    const waitFor =
      `const fs=require("fs");const until=Date.now()+60000;` +
      `(function poll(){if(fs.existsSync(${JSON.stringify(marker)}))return;` +
      `if(Date.now()>until)process.exit(9);setTimeout(poll,20)})()`;
    const results = await runSideBySide(
      [node('waits', waitFor), node('writes', `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`)],
      os.tmpdir(),
    );
    fs.rmSync(marker, { force: true });
    expect(results.map((result) => result.code)).toEqual([0, 0]);
  }, 120_000);

  it('reports a command that cannot start as failed', async () => {
    const [result] = await runSideBySide([{ name: 'missing', command: 'no-such-command-here', args: [] }], os.tmpdir());
    expect(result!.code).not.toBe(0);
  });
});
