import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { missingHostWarning } from './host-page-module';

let dist: FixtureDist;
beforeEach(() => {
  dist = createFixtureDist();
});
afterEach(() => dist.remove());

describe('missingHostWarning', () => {
  it('says, naming FRONTEND_DIR, when the build holds no host (every page would answer 503)', () => {
    expect(missingHostWarning(dist.dir)).toMatch(
      /^No admin interface to serve: .*\/host\/index\.html is missing, so every page answers 503 .*FRONTEND_DIR/,
    );
  });

  it('says nothing when the host is built', () => {
    dist.addHost();
    expect(missingHostWarning(dist.dir)).toBeUndefined();
  });
});
