import { median } from './median';
import { percentile } from './percentile';

describe('percentile', () => {
  it('gives the quartiles between ranks, and the median at 50', () => {
    const values = [40, 10, 30, 20, 50];
    expect(percentile(values, 25)).toBe(20);
    expect(percentile(values, 75)).toBe(40);
    expect(percentile(values, 50)).toBe(median(values));
    expect(percentile([1, 2, 3, 4], 25)).toBeCloseTo(1.75);
    expect(percentile([1, 2, 3, 4], 50)).toBe(median([1, 2, 3, 4]));
    expect(percentile([7], 75)).toBe(7);
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(50);
  });

  it('refuses no values or a percentile outside 0 to 100', () => {
    expect(() => percentile([], 25)).toThrow('percentile() of no values.');
    expect(() => percentile([1], 101)).toThrow('give 0 to 100');
  });
});
