import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readThreadInstructions, summaryOf, waitForDump } from './callgrind-dump';

const dump = (summary: number, thread: number) =>
  `# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 4242\ncmd: node main.js\npart: 1\n\n` +
  `desc: Trigger: Client Request: dump\nthread: ${thread}\npositions: line\nevents: Ir\nsummary: ${summary}\n\n` +
  `fn=(1) main\n0 ${summary}\n\ntotals: ${summary}\n`;

describe('callgrind dumps', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'callgrind-dump-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads the summary line, not the totals or a cost line', () => {
    expect(summaryOf(dump(1_384_012_664, 1))).toBe(1_384_012_664);
  });

  it('refuses a file without a summary rather than reading zero', () => {
    expect(() => summaryOf('# callgrind format\nevents: Ir\n')).toThrow(/without a summary/);
  });

  it('splits one dump into the main thread and the others, leaving other dumps and the final file out', async () => {
    const out = path.join(dir, 'off.out');
    await writeFile(`${out}.1-01`, dump(1000, 1));
    await writeFile(`${out}.1-02`, dump(0, 2));
    await writeFile(`${out}.1-03`, dump(250, 3));
    await writeFile(`${out}.1-11`, dump(50, 11));
    await writeFile(`${out}.2-01`, dump(99_999, 1));
    await writeFile(`${out}-01`, dump(77_777, 1));
    expect(await readThreadInstructions(out, 1)).toEqual({ main: 1000, background: 300 });
    expect(await readThreadInstructions(out, 2)).toEqual({ main: 99_999, background: 0 });
  });

  it('says which dump is missing', async () => {
    await expect(readThreadInstructions(path.join(dir, 'off.out'), 1)).rejects.toThrow(
      /no callgrind dump off\.out\.1-/,
    );
  });
});

describe('waiting for a dump', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'callgrind-wait-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('waits until every thread file is there and complete', async () => {
    const out = path.join(dir, 'off.out');
    await writeFile(`${out}.1-01`, 'events: Ir\nsummary: 10\n');
    const waited = waitForDump(out, 1, 10_000);
    let done = false;
    void waited.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(done).toBe(false);
    await writeFile(`${out}.1-01`, 'events: Ir\nsummary: 10\ntotals: 10\n');
    await writeFile(`${out}.1-02`, 'events: Ir\nsummary: 5\ntotals: 5\n');
    await waited;
    expect(await readThreadInstructions(out, 1)).toEqual({ main: 10, background: 5 });
  });

  it('gives up after its timeout, naming the dump', async () => {
    await expect(waitForDump(path.join(dir, 'off.out'), 1, 600)).rejects.toThrow(/did not write off\.out\.1-\*/);
  });
});
