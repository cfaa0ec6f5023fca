import { renderPageProfile } from './render-page-profile';

describe('renderPageProfile', () => {
  const federated = {
    msByPackage: new Map([
      ['react-dom', 70],
      ['@module-federation/runtime-core', 42.5],
      ['host/core', 25],
      ['(garbage collector)', 7],
    ]),
    readyMs: [800, 860, 900],
  };
  const bundled = {
    msByPackage: new Map([
      ['react-dom', 72],
      ['host/core', 22],
      ['(garbage collector)', 4],
    ]),
    readyMs: [700, 720, 705],
  };

  it('lists what runs, federated against bundled, the largest difference first, with the totals', () => {
    const lines = renderPageProfile('Dashboard (/), warm', federated, bundled).split('\n');
    expect(lines[0]).toBe('Dashboard (/), warm');
    const rows = lines.slice(2, 6).map((line) => line.split(/\s{2,}/).map((cell) => cell.trim()));
    expect(rows).toEqual([
      ['@module-federation/runtime-core', '42.5', '0.0', '+42.5'],
      ['host/core', '25.0', '22.0', '+3.0'],
      ['(garbage collector)', '7.0', '4.0', '+3.0'],
      ['react-dom', '70.0', '72.0', '-2.0'],
    ]);
    const cells = (label: string) =>
      lines
        .find((line) => line.startsWith(label))
        ?.slice(label.length)
        .trim()
        .split(/\s+/);
    // The scripts leave out V8's own entries, in parentheses; busy counts everything.
    expect(cells("the page's scripts, together")).toEqual(['137.5', '94.0', '+43.5']);
    expect(cells('busy, together')).toEqual(['144.5', '98.0', '+46.5']);
    expect(cells('ready (median of the profiled loads)')).toEqual(['860.0', '705.0', '+155.0']);
  });
});
