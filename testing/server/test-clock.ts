/**
 * A clock that moves only when the test moves it, for tests of time windows (the sign-in limits' slow-down, the time
 * a client is remembered): a loaded machine's pause can then neither end a window before the test looks nor make
 * the test sleep through one. The counters of rate-limiter-flexible read `Date.now()` (and the memory store expires
 * keys with `setTimeout`) inside the library, where no clock can be handed to them: Jest's clock replaces those.
 * Call `useRealTimers` of Jest after the test (afterEach).
 */
export interface TestClock {
  /** Moves the clock on by `ms` (with `timers`, firing the timers due meanwhile). */
  advance(ms: number): void;
}

/** What stays real with `timers: false`: everything but Date, so I/O (SQLite, HTTP through supertest) runs as ever. */
const ALL_BUT_DATE = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/**
 * Stops the clock now. `timers: true` also holds back `setTimeout` and `setInterval` (for code that does no I/O,
 * such as the memory store, whose keys expire by a timer); `false` stops `Date` alone.
 */
export function stopTheClock(options: { timers: boolean }): TestClock {
  if (options.timers) {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    return { advance: (ms) => jest.advanceTimersByTime(ms) };
  }
  jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE] });
  return { advance: (ms) => jest.setSystemTime(Date.now() + ms) };
}
