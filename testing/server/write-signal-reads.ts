import type { StorageEngine } from '../../server/storage/storage-engine';

/**
 * Spies on `engine.noteWrite`: at each signal `read` runs (through another host's engine, which sees committed data
 * only) and its answer joins the list returned, in the order of the signals, before the signal goes on. What the
 * caches woken by a signal would read then: the tests of when stores signal compare it with what was written.
 * jest.restoreAllMocks() ends it.
 */
export function readsAtEachSignal<T>(engine: StorageEngine, read: () => Promise<T>): Promise<T>[] {
  const signal = engine.noteWrite.bind(engine);
  const reads: Promise<T>[] = [];
  jest.spyOn(engine, 'noteWrite').mockImplementation(() => {
    reads.push(read());
    signal();
  });
  return reads;
}
