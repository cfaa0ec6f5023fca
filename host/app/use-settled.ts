import { useEffect, useState } from 'react';

/** Whether a promise has settled (either way); true when there is none to wait for. */
export function useSettled(promise: Promise<unknown> | undefined): boolean {
  const [settled, setSettled] = useState<Promise<unknown> | undefined>(undefined);
  useEffect(() => {
    if (promise === undefined) return undefined;
    let live = true;
    const done = () => {
      if (live) setSettled(promise);
    };
    promise.then(done, done);
    return () => {
      live = false;
    };
  }, [promise]);
  return promise === undefined || settled === promise;
}
