/**
 * HeldContextManager: the SDK's AsyncLocalStorage context, carried across asynchronous steps while something holds
 * it, turned off by offUnlessHeld once nothing does, on again at the next context entered.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createContextKey, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { HeldContextManager } from './held-context';

const KEY = createContextKey('held-context test');
const first = ROOT_CONTEXT.setValue(KEY, 'first');
const second = ROOT_CONTEXT.setValue(KEY, 'second');

let manager: HeldContextManager;
beforeEach(() => {
  manager = new HeldContextManager();
});
afterEach(() => {
  manager.disable();
});

/** What `manager` gives as active after an asynchronous step taken in `context`, read when `gate` resolves. */
function activeAfter(context: Context, gate: Promise<void>): Promise<Context> {
  return manager.with(context, async () => {
    await nextTurn();
    await gate;
    return manager.active();
  });
}

it('carries a context across asynchronous steps while held, whatever offUnlessHeld is asked', async () => {
  const release = manager.hold();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const read = activeAfter(first, gate);
  expect(manager.offUnlessHeld()).toBe(false);
  open();
  expect(await read).toBe(first);
  release();
});

it('once nothing holds it, offUnlessHeld turns it off: a context entered before is no longer carried', async () => {
  const release = manager.hold();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const read = activeAfter(first, gate);
  await nextTurn();
  release();
  expect(manager.offUnlessHeld()).toBe(true);
  open();
  expect(await read).toBe(ROOT_CONTEXT);
});

it('is carried again from the next context entered after it was turned off', async () => {
  expect(manager.offUnlessHeld()).toBe(true);
  expect(manager.active()).toBe(ROOT_CONTEXT);
  expect(await activeAfter(second, Promise.resolve())).toBe(second);
});

it('counts each hold once: a release called twice does not free another hold', async () => {
  const a = manager.hold();
  const b = manager.hold();
  a();
  a();
  expect(manager.offUnlessHeld()).toBe(false);
  b();
  expect(manager.offUnlessHeld()).toBe(true);
});

it('keeps a context attached while held, as `with` does', async () => {
  const release = manager.hold();
  const read = (async () => {
    const token = manager.attach(second);
    await nextTurn();
    const active = manager.active();
    token.dispose();
    return active;
  })();
  expect(manager.offUnlessHeld()).toBe(false);
  expect(await read).toBe(second);
  release();
});

describe('runSynchronously', () => {
  /** What `manager` gives as active in a callback of the next turn, the callback scheduled now. */
  function activeNextTurn(): Promise<Context> {
    return new Promise((resolve) => setImmediate(() => resolve(manager.active())));
  }

  it('makes a context active until the call returns, and carries it into nothing the call starts', async () => {
    expect(manager.offUnlessHeld()).toBe(true);
    let during: Context | undefined;
    let later!: Promise<Context>;
    const answer = manager.runSynchronously(
      first,
      (a: number, b: number) => {
        during = manager.active();
        later = activeNextTurn();
        return a + b;
      },
      2,
      3,
    );
    expect(answer).toBe(5);
    expect(during).toBe(first);
    expect(manager.active()).toBe(ROOT_CONTEXT);
    // AsyncLocalStorage was not entered: what the call started runs with no context.
    expect(await later).toBe(ROOT_CONTEXT);
  });

  it('leaves what the call starts in the context it would have run in otherwise, and restores it after a throw', async () => {
    const release = manager.hold();
    const later = manager.with(second, () => {
      let started!: Promise<Context>;
      expect(() =>
        manager.runSynchronously(first, () => {
          started = activeNextTurn();
          throw new Error('the call failed');
        }),
      ).toThrow('the call failed');
      expect(manager.active()).toBe(second);
      return started;
    });
    expect(await later).toBe(second);
    release();
  });

  it('gives way to a context entered inside the call, which is carried as usual, and is back once it returns', async () => {
    const seen: Context[] = [];
    let carried!: Promise<Context>;
    manager.runSynchronously(first, () => {
      manager.with(second, () => {
        seen.push(manager.active());
        carried = activeNextTurn();
      });
      seen.push(manager.active());
      manager.runSynchronously(second, () => seen.push(manager.active()));
      seen.push(manager.active());
    });
    expect(seen).toEqual([second, first, second, first]);
    expect(await carried).toBe(second);
  });
});
