import type { SlotSource } from './slot-source';

/** Settles once the slot source gives out data (or its failure), no longer "loading": what the shell waits for. */
export function slotDataSettled(source: SlotSource): Promise<void> {
  return new Promise((resolve) => {
    const settled = () => source.snapshot().status !== 'loading';
    if (settled()) return resolve();
    const stop = source.subscribe(() => {
      if (!settled()) return;
      stop();
      resolve();
    });
  });
}
