import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { Context } from '@opentelemetry/api';

/**
 * The SDK's AsyncLocalStorage context, turned off while nothing needs it carried.
 *
 * On Node 20, once an AsyncLocalStorage is entered, Node runs a hook for every asynchronous resource the process makes
 * (each `nextTick`, each socket write, each timer) and copies the current context onto it: about 10,000 instructions
 * per `GET /slots` answer, two thirds of what a request sampled out cost (docs/operators/performance.md, eleventh
 * round), whether or not any span is recorded. A request sampled out that brought no trace of its own needs no
 * context carried: nothing records under it, and its trace reaches its log lines and the requests it sends on through
 * the request itself (request-trace.ts).
 *
 * So whatever needs the context carried across asynchronous steps holds it (`hold`: a request that records, a probe
 * that suppresses tracing, a request sampled out that brought its caller's trace state or baggage to send on) until it
 * is done; a request sampled out with nothing of its own turns AsyncLocalStorage off when nothing holds it
 * (`offUnlessHeld`) and runs without entering a context. The next `with` (or `attach`) turns it on again. Work that
 * entered a context without holding it (the batch processor's export, an instrumentation's own callbacks) may lose it
 * after the next request sampled out: none of it starts spans after an asynchronous step.
 *
 * Releasing the last hold leaves it on: turned off and on again at every recorded request, it cost more than the hooks
 * it spared (docs/operators/performance.md, thirteenth round).
 *
 * Work known to be done before it returns (the public fast path's answer to a recorded `GET /slots`) needs its context
 * while it runs and carried into nothing: `runSynchronously` makes the context active for the call alone, without
 * entering AsyncLocalStorage, which stays as it was (off, at one recorded request in ten, where entering it at each
 * recorded request kept it on for the requests sampled out around it; sixteenth round of the performance guide).
 */
export class HeldContextManager extends AsyncLocalStorageContextManager {
  /** What holds the context now (requests recording, probes in progress). */
  #holds = 0;
  /** Whether a context was entered since AsyncLocalStorage was last turned off (its hook may be running). */
  #entered = false;
  /** The context of the synchronous call running now (runSynchronously), active over AsyncLocalStorage's. */
  #synchronous: Context | undefined = undefined;

  override active(): Context {
    return this.#synchronous ?? super.active();
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.#entered = true;
    const synchronous = this.#synchronous;
    if (synchronous === undefined) return super.with(context, fn, thisArg, ...args);
    // Entered inside a synchronous call: `context` is the active one until `fn` returns, and carried as usual.
    this.#synchronous = undefined;
    try {
      return super.with(context, fn, thisArg, ...args);
    } finally {
      this.#synchronous = synchronous;
    }
  }

  /**
   * `fn(...args)`, with `context` active until it returns and carried into nothing it starts: AsyncLocalStorage is
   * not entered, and a callback, promise or timer started meanwhile runs in the context it would have run in
   * otherwise (none, while AsyncLocalStorage is off). For work whose every use of its context is done when it returns.
   */
  runSynchronously<A extends unknown[], T>(context: Context, fn: (...args: A) => T, ...args: A): T {
    const outer = this.#synchronous;
    this.#synchronous = context;
    try {
      return fn(...args);
    } finally {
      this.#synchronous = outer;
    }
  }

  override attach(context: Context): ReturnType<AsyncLocalStorageContextManager['attach']> {
    this.#entered = true;
    // Inside a synchronous call, what is attached is active from now on (its context is back once the call returns).
    this.#synchronous = undefined;
    return super.attach(context);
  }

  override disable(): this {
    this.#entered = false;
    super.disable();
    return this;
  }

  /** Keeps the context carried until the function returned is called (more calls change nothing). */
  hold(): () => void {
    this.#holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds -= 1;
    };
  }

  /**
   * Turns AsyncLocalStorage off unless something holds the context: true when no context is carried now (the caller
   * may run without entering one), false when something holds it (the caller enters its own as usual, so that it
   * does not run in the context of whatever asynchronous step it was called from).
   */
  offUnlessHeld(): boolean {
    if (this.#holds > 0) return false;
    if (this.#entered) this.disable();
    return true;
  }
}
