import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const TICK_SHAPES = path.join(__dirname, 'tick-shapes.ts');

/**
 * What an idle server does to nextTick, in a child process: bursts of ticks (made inside an AsyncLocalStorage, as a
 * traced server makes them, and outside one), each followed by a pause with no tick alive and two full collections;
 * then V8's feedback on nextTick's object literal, from %DebugPrint (a V8 intrinsic: the child runs with
 * --allow-natives-syntax). One state per property the literal defines after the first.
 */
function literalFeedbackAfterIdlePeriods(keepTickShapes: boolean): string[] {
  const script = `
    const { AsyncLocalStorage } = require('node:async_hooks');
    if (process.env.KEEP_TICK_SHAPES === '1') require(process.env.TICK_SHAPES).keepTickShapesAlive();
    const storage = new AsyncLocalStorage();
    const burst = (ticks) => new Promise((resolve) => {
      let left = ticks;
      const done = () => { if (--left === 0) resolve(); };
      for (let i = 0; i < ticks; i++) {
        if (i % 2 === 0) storage.run({ request: i }, () => process.nextTick(done));
        else process.nextTick(done, i);
      }
    });
    (async () => {
      for (let period = 0; period < 8; period++) {
        await burst(20000);
        await new Promise((resolve) => setTimeout(resolve, 5));
        global.gc();
        global.gc();
      }
      new Function('%DebugPrint(process.nextTick)')();
    })();`;
  // V8 prints with C's stdio, which loses output on the non-blocking pipe Node makes of a child's stdout: a file.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tick-shapes-'));
  const printed = path.join(folder, 'stdout.txt');
  const stdout = fs.openSync(printed, 'w');
  try {
    const child = spawnSync(
      process.execPath,
      // Compiled on the main thread: a background compile still waiting for a core (the machine busy with other
      // tests) holds the maps it read through the collections, and the idle periods then left nextTick's definitions
      // monomorphic without any tick kept alive (two runs in four with three cores' worth of load beside them; six in
      // six megamorphic with this flag, and the kept tick's six monomorphic).
      ['--allow-natives-syntax', '--expose-gc', '--no-concurrent-recompilation', '--import', 'tsx', '-e', script],
      {
        stdio: ['ignore', stdout, 'pipe'],
        encoding: 'utf8',
        env: { ...process.env, TICK_SHAPES, KEEP_TICK_SHAPES: keepTickShapes ? '1' : '0' },
        timeout: 60_000,
      },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const states = [...fs.readFileSync(printed, 'utf8').matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)];
    expect(states).toHaveLength(4);
    return states.slice(1).map((match) => match[1] ?? '');
  } finally {
    fs.closeSync(stdout);
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

test('without a tick kept alive, idle periods leave the definitions of nextTick’s literal megamorphic', () => {
  // The slowdown keepTickShapesAlive prevents, reproduced: if Node stops making ticks this way, this fails first.
  expect(literalFeedbackAfterIdlePeriods(false)).toContain('MEGAMORPHIC');
});

test('with one tick kept alive, they stay monomorphic through the same idle periods', () => {
  expect(literalFeedbackAfterIdlePeriods(true)).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
});
