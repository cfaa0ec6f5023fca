/**
 * The deadlines of this process's outgoing requests (`AbortSignal.timeout`, as the server's reads of a remote's origin
 * set them), held by the test: none runs out by itself, and `expire()` ends those set so far as their time running
 * out would (a `TimeoutError`). For a test where an origin must time out while others answer: with a short real
 * deadline, a loaded machine's pause also cut requests that an origin was answering, and read them as timed out. The
 * spy goes with `jest.restoreAllMocks()` (afterEach).
 */
export interface HeldDeadlines {
  /** Every deadline set and not yet run out runs out now (requests already answered are not affected). */
  expire(): void;
}

export function holdRequestDeadlines(): HeldDeadlines {
  let held: AbortController[] = [];
  jest.spyOn(AbortSignal, 'timeout').mockImplementation(() => {
    const controller = new AbortController();
    held.push(controller);
    return controller.signal;
  });
  return {
    expire() {
      const due = held;
      held = [];
      for (const controller of due) {
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      }
    },
  };
}
