import { StampedCache } from './stamped-cache';

describe('StampedCache', () => {
  it('loads a key once while the stamp stays, and again after it moved', () => {
    let stamp = 'a';
    const cache = new StampedCache<number, string>(() => stamp);
    const loads: number[] = [];
    const load = (key: number) => {
      loads.push(key);
      return `value ${key} at ${stamp}`;
    };
    expect(cache.get(1, load)).toBe('value 1 at a');
    expect(cache.get(1, load)).toBe('value 1 at a');
    expect(cache.get(2, load)).toBe('value 2 at a');
    expect(loads).toEqual([1, 2]);
    stamp = 'b';
    expect(cache.get(1, load)).toBe('value 1 at b');
    expect(loads).toEqual([1, 2, 1]);
  });

  it('remembers that a key has no value (null)', () => {
    const cache = new StampedCache<number, string | null>(() => 's');
    let loads = 0;
    const load = () => {
      loads++;
      return null;
    };
    expect(cache.get(7, load)).toBeNull();
    expect(cache.get(7, load)).toBeNull();
    expect(loads).toBe(1);
  });

  it('starts over beyond its size limit instead of growing', () => {
    const cache = new StampedCache<number, number>(() => 's', 2);
    let loads = 0;
    const load = (key: number) => {
      loads++;
      return key;
    };
    cache.get(1, load);
    cache.get(2, load);
    cache.get(3, load);
    expect(loads).toBe(3);
    cache.get(3, load);
    expect(loads).toBe(3);
    cache.get(1, load);
    expect(loads).toBe(4);
  });
});
