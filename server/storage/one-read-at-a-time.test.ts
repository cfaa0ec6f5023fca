import { OneReadAtATime } from './one-read-at-a-time';

describe('OneReadAtATime', () => {
  it('runs one read at a time, in the order asked', async () => {
    const reads = new OneReadAtATime();
    const log: string[] = [];
    let release: () => void = () => undefined;
    const first = reads.run(async () => {
      log.push('first start');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      log.push('first end');
    });
    const second = reads.run(async () => {
      log.push('second');
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual(['first start']);
    release();
    await Promise.all([first, second]);
    expect(log).toEqual(['first start', 'first end', 'second']);
  });

  it('gives a failure to its own caller only, and the next read still runs', async () => {
    const reads = new OneReadAtATime();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failed = reads.run(async () => {
        throw new Error('database gone');
      });
      let ranAgain = false;
      const next = reads.run(async () => {
        ranAgain = true;
      });
      await expect(failed).rejects.toThrow('database gone');
      await expect(next).resolves.toBeUndefined();
      expect(ranAgain).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
