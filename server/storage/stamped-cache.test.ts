import { StampedCache } from './stamped-cache';

describe('StampedCache', () => {
  it('loads a key once while the stamp stays, and again after it moved', async () => {
    let stamp = 'a';
    const cache = new StampedCache<number, string>(() => stamp);
    const loads: number[] = [];
    const load = (key: number) => {
      loads.push(key);
      return Promise.resolve(`value ${key} at ${stamp}`);
    };
    expect(await cache.get(1, load)).toBe('value 1 at a');
    expect(await cache.get(1, load)).toBe('value 1 at a');
    expect(await cache.get(2, load)).toBe('value 2 at a');
    expect(loads).toEqual([1, 2]);
    stamp = 'b';
    expect(await cache.get(1, load)).toBe('value 1 at b');
    expect(loads).toEqual([1, 2, 1]);
  });

  it('takes an asynchronous stamp (PostgreSQL reads it from the database)', async () => {
    let stamp = 'a';
    const cache = new StampedCache<number, string>(() => Promise.resolve(stamp));
    let loads = 0;
    const load = (key: number) => {
      loads++;
      return Promise.resolve(`value ${key} at ${stamp}`);
    };
    expect(await cache.get(1, load)).toBe('value 1 at a');
    expect(await cache.get(1, load)).toBe('value 1 at a');
    stamp = 'b';
    expect(await cache.get(1, load)).toBe('value 1 at b');
    expect(loads).toBe(2);
  });

  it('remembers that a key has no value (null)', async () => {
    const cache = new StampedCache<number, string | null>(() => 's');
    let loads = 0;
    const load = () => {
      loads++;
      return Promise.resolve(null);
    };
    expect(await cache.get(7, load)).toBeNull();
    expect(await cache.get(7, load)).toBeNull();
    expect(loads).toBe(1);
  });

  it('shares one load between callers asking at once, and forgets a failed load', async () => {
    const cache = new StampedCache<number, string>(() => 's');
    let loads = 0;
    const failing = () => {
      loads++;
      return Promise.reject(new Error('database gone'));
    };
    await expect(Promise.all([cache.get(1, failing), cache.get(1, failing)])).rejects.toThrow('database gone');
    expect(loads).toBe(1);
    expect(await cache.get(1, () => Promise.resolve('back'))).toBe('back');
  });

  it('starts over beyond its size limit instead of growing', async () => {
    const cache = new StampedCache<number, number>(() => 's', 2);
    let loads = 0;
    const load = (key: number) => {
      loads++;
      return Promise.resolve(key);
    };
    await cache.get(1, load);
    await cache.get(2, load);
    await cache.get(3, load);
    expect(loads).toBe(3);
    await cache.get(3, load);
    expect(loads).toBe(3);
    await cache.get(1, load);
    expect(loads).toBe(4);
  });
});
