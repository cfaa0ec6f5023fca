import { median } from './median';

describe('median', () => {
  it('takes the middle of an odd count and the mean of the two middles of an even count, whatever the order', () => {
    expect(median([5])).toBe(5);
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is not moved by one outlier', () => {
    expect(median([100, 101, 1_000_000])).toBe(101);
  });

  it('refuses no values rather than inventing a figure', () => {
    expect(() => median([])).toThrow('median() of no values.');
  });
});
