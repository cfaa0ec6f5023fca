import type { PageProtocol } from '../harness/bench-options';
import type { PageLoadResult } from './bench-results';
import { pageGoalVerdict, plainGoalVerdict, renderPageLoads } from './render-page-loads';

function run(
  number: number,
  ratio: number,
  slotEvents: 'on' | 'off' = 'on',
  federatedMs = 100,
  protocol: PageProtocol = 'http1',
  plainRatio?: number,
): PageLoadResult {
  const side = (medianMs: number) => ({
    medianMs,
    p25Ms: medianMs,
    p75Ms: medianMs,
    timesMs: [medianMs],
    requests: 1,
    bytes: 1,
  });
  return {
    name: 'Dashboard',
    path: '/',
    signedIn: true,
    cache: 'cold',
    slotEvents,
    protocol,
    run: number,
    loads: 1,
    slotComponents: [],
    federated: side(federatedMs),
    bundled: side(federatedMs / ratio),
    ratio,
    maximumRatio: 1.2,
    ...(plainRatio === undefined
      ? {}
      : { plain: { side: side(federatedMs / plainRatio), ratio: plainRatio, maximumRatio: 0.85 } }),
  };
}

describe('pageGoalVerdict', () => {
  it('counts a goal met only when at least two runs all meet it', () => {
    expect(pageGoalVerdict([run(1, 1.1), run(2, 1.2)])).toBe('met');
    expect(pageGoalVerdict([run(1, 1.1), run(2, 1.21)])).toBe('**missed**');
    expect(pageGoalVerdict([run(1, 1.25), run(2, 1.0)])).toBe('**missed**');
    expect(pageGoalVerdict([run(1, 1.0)])).toBe('one run: not counted');
  });
});

describe('plainGoalVerdict', () => {
  it('counts the goal against plain Module Federation from one run, met only when every run meets it', () => {
    expect(plainGoalVerdict([run(1, 1.1, 'on', 100, 'http1', 0.85)])).toBe('met');
    expect(plainGoalVerdict([run(1, 1.1, 'on', 100, 'http1', 0.8), run(2, 1.1, 'on', 100, 'http1', 0.86)])).toBe(
      '**missed**',
    );
    expect(plainGoalVerdict([run(1, 1.1)])).toBe('**missed**');
  });
});

describe('renderPageLoads', () => {
  it('shows each page against the bundled host and, in a row of its own, against plain Module Federation', () => {
    const markdown = renderPageLoads([
      run(1, 1.25, 'on', 125, 'http1', 0.5),
      run(2, 1.0, 'on', 100, 'http1', 0.75),
    ]).join('\n');
    // Bundled medians 100 and 100; plain medians 250 and 133.3 (125 / 0.5, 100 / 0.75).
    expect(markdown).toContain(
      '| Dashboard (`/`, signed in) | HTTP/1.1 | cold | on | 1 | 125 ms (125–125) / 100 ms (100–100) | bundled host | ' +
        '100 ms (100–100) / 100 ms (100–100) | 1 req, 1 B; 1 req, 1 B | 1.25 / 1.00 | <= 1.20 | **missed** |',
    );
    expect(markdown).toContain(
      '| Dashboard (`/`, signed in) | HTTP/1.1 | cold | on | 1 | 125 ms (125–125) / 100 ms (100–100) | ' +
        'plain Module Federation | 250 ms (250–250) / 133 ms (133–133) | 1 req, 1 B; 1 req, 1 B | 0.50 / 0.75 | ' +
        '<= 0.85 | met |',
    );
  });

  it('leaves the plain Module Federation row out for results measured without it', () => {
    expect(renderPageLoads([run(1, 1.0), run(2, 1.0)]).join('\n')).not.toContain('| plain Module Federation |');
  });

  it('shows what slot events cost: both ratios, and each side with events on over off, run by run', () => {
    const markdown = renderPageLoads([
      run(1, 1.1, 'on', 110),
      run(1, 1.0, 'off', 100),
      run(2, 1.05, 'on', 105),
      run(2, 1.0, 'off', 100),
    ]).join('\n');
    // Bundled medians: 100 (on, run 1), 100 (off), 100 (on, run 2), 100 (off).
    expect(markdown).toContain('| Dashboard (`/`) | cold | 1.10 / 1.05 | 1.00 / 1.00 | 1.10 / 1.05 | 1.00 / 1.00 |');
    expect(markdown).toContain(
      '| Dashboard (`/`, signed in) | HTTP/1.1 | cold | on | 1 | 110 ms (110–110) / 105 ms (105–105) |',
    );
  });

  it('leaves the events table out when no page was measured both ways', () => {
    expect(renderPageLoads([run(1, 1.0), run(2, 1.0)]).join('\n')).not.toContain('What slot events cost');
  });

  it('shows each protocol in rows of its own, and HTTP/2 against HTTP/1.1 side by side, run by run', () => {
    const markdown = renderPageLoads([
      run(1, 1.2, 'on', 120),
      run(2, 1.2, 'on', 120),
      run(1, 1.05, 'on', 84, 'h2'),
      run(2, 1.0, 'on', 90, 'h2'),
    ]).join('\n');
    expect(markdown).toContain(
      '| Dashboard (`/`, signed in) | HTTPS, HTTP/2 | cold | on | 1 | 84.0 ms (84–84) / 90.0 ms (90–90) |',
    );
    // Federated 84/120 and 90/120; bundled 80/100 and 90/100; ratios 1.20 over HTTP/1.1, 1.05 and 1.00 over HTTP/2.
    expect(markdown).toContain(
      '| Dashboard (`/`) | cold | on | 0.70 / 0.75 | 0.80 / 0.90 | 1.20 / 1.20 | 1.05 / 1.00 |',
    );
    expect(renderPageLoads([run(1, 1.2), run(2, 1.2)]).join('\n')).not.toContain('HTTP/2 against HTTP/1.1');
  });
});
