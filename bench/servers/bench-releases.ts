import type { App } from '../../server/app';

/** The release the bench's canary points at: the same files, another entry (a query), so the choice is real. */
export const BENCH_CANARY_VERSION = 'bench-2';

/**
 * Makes every remote the server knows a released one, as after a team's two releases: `bench-1` active, `bench-2`
 * a canary for half the users. Every signed-in page and GET /api/remotes then chooses a release per request.
 */
export async function seedBenchReleases(app: App): Promise<void> {
  for (const remote of app.remoteRegistry.remotes()) {
    const descriptor = {
      remote: remote.name,
      components: remote.components,
      formComponents: remote.formComponents ?? [],
      props: {},
      publishedBy: 'bench',
    };
    await app.releases.publish({ ...descriptor, version: 'bench-1', entry: remote.entry });
    await app.releases.publish({ ...descriptor, version: BENCH_CANARY_VERSION, entry: `${remote.entry}?release=2` });
    await app.releases.changeRollout({
      remote: remote.name,
      action: 'canary',
      actor: 'bench',
      next: { active: 'bench-1', canary: { version: BENCH_CANARY_VERSION, percent: 50, tenants: [] } },
    });
  }
  await app.releaseSnapshot.refresh();
}
