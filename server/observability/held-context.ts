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
 */
export class HeldContextManager extends AsyncLocalStorageContextManager {
  /** What holds the context now (requests recording, probes in progress). */
  #holds = 0;
  /** Whether a context was entered since AsyncLocalStorage was last turned off (its hook may be running). */
  #entered = false;

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.#entered = true;
    return super.with(context, fn, thisArg, ...args);
  }

  override attach(context: Context): ReturnType<AsyncLocalStorageContextManager['attach']> {
    this.#entered = true;
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
