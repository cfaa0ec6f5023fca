import { BENCHED_PAGE_NAMES } from '../harness/bench-options';
import { BENCHED_PAGES } from './page-loads';

describe('the page suite by name', () => {
  it('has a page for every name --pages accepts, so a page named on the command line is never silently skipped', () => {
    const keys = new Set(BENCHED_PAGES.map((page) => page.key));
    expect([...keys].sort()).toEqual([...BENCHED_PAGE_NAMES].sort());
  });

  it('gives each name one path', () => {
    for (const name of BENCHED_PAGE_NAMES) {
      const paths = new Set(BENCHED_PAGES.filter((page) => page.key === name).map((page) => page.path));
      expect({ name, paths: paths.size }).toEqual({ name, paths: 1 });
    }
  });
});
