/**
 * One `process.nextTick` object kept alive for the life of the process, so that every later tick has the same
 * shape, and V8 keeps making ticks in optimized code.
 *
 * Why: Node 20's `process.nextTick` builds each tick as an object literal with symbol keys
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 defines those properties one after
 * the other, through a hidden class (a map) per step. When the server idles, no tick is alive at a full garbage
 * collection (the first step's map is cached by V8), so the maps of the later steps die with the ticks, and the next
 * tick makes new ones. Each such pause shows nextTick's property definitions one more map; soon (after the first
 * pause with a full collection, in the servers watched) they are megamorphic, which they never leave, and from then on
 * every tick is built in V8's runtime: about 2 µs more CPU per answer of `GET /slots`, a sixth of its throughput,
 * traced or not (docs/operators/performance.md, "a server that slows down"). Node's HTTP server makes several ticks
 * per request, so every route pays. A tick that never dies holds its map, and each map holds the one before it: the
 * chain stays, and the definitions stay monomorphic.
 */
import { executionAsyncResource } from 'node:async_hooks';

/** The tick kept alive, once keepTickShapesAlive's own tick has run; `null` while it waits to. */
let keptTick: object | null | undefined;

/** Keeps one tick alive (once per process; later calls do nothing). Its callback runs on the next turn. */
export function keepTickShapesAlive(): void {
  if (keptTick !== undefined) return;
  keptTick = null;
  // Inside a tick's callback, the resource being executed is the tick object itself.
  process.nextTick(() => {
    keptTick = executionAsyncResource();
  });
}
