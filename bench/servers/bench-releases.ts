import type { App } from '../../server/app';

/**
 * Makes every remote the server knows a released one, as after a team's releases: `releasesPerRemote` versions
 * published (`bench-1` ... `bench-<n>`, each its own entry: the same files behind a query, so the choice is real),
 * the one before last active and the last a canary for half the users. Every signed-in page and GET /api/remotes
 * then chooses a release per request, among as many stored releases as a long-lived product would keep.
 */
export async function seedBenchReleases(app: App, releasesPerRemote = 2): Promise<void> {
  if (!Number.isInteger(releasesPerRemote) || releasesPerRemote < 2) {
    throw new Error(`A canary needs two releases per remote at least, not ${releasesPerRemote}.`);
  }
  for (const remote of app.remotes.registry.remotes()) {
    const descriptor = {
      remote: remote.name,
      components: remote.components,
      formComponents: remote.formComponents ?? [],
      props: {},
      publishedBy: 'bench',
    };
    for (let release = 1; release <= releasesPerRemote; release += 1) {
      const entry = release === 1 ? remote.entry : `${remote.entry}?release=${release}`;
      await app.releases.store.publish({ ...descriptor, version: `bench-${release}`, entry });
    }
    await app.releases.store.changeRollout({
      remote: remote.name,
      action: 'canary',
      actor: 'bench',
      next: {
        active: `bench-${releasesPerRemote - 1}`,
        canary: { version: `bench-${releasesPerRemote}`, percent: 50, tenants: [] },
      },
    });
  }
  await app.releases.snapshot.refresh();
}
