/**
 * Which remotes declared by entry alone `npm run remotes:reload` reads from their origins (those a host would check
 * the file with), over real HTTP from a served build, and what it says of those it cannot check.
 */
import type { RemoteRelease } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { startStaticServer } from '../../testing/system/static-server';
import { HttpDescriptorSource } from '../remotes/http-descriptor-source';
import { descriptorUrlOf } from '../remotes/remotes-config';
import { readEntryRemotes } from './remotes-reload-origins';

let dist: FixtureDist;
let origin: HttpFixtureServer;
beforeEach(async () => {
  dist = createFixtureDist();
  dist.addRemote({ name: 'team_billing', components: ['InvoiceBanner'], formComponents: [], props: {} });
  origin = await startStaticServer(dist.dir);
});
afterEach(async () => {
  await origin.close();
  dist.remove();
});

function billing() {
  const entry = `${origin.url}/remotes/team_billing/mf-manifest.json`;
  return { name: 'team_billing', entry, descriptorUrl: descriptorUrlOf(entry)! };
}

function release(entry: string, version = '0.2.0'): RemoteRelease {
  return {
    remote: 'team_billing',
    version,
    entry,
    components: ['OldBanner'],
    formComponents: [],
    props: {},
    publishedBy: 'token:1',
    publishedAt: new Date(0).toISOString(),
  };
}

const source = new HttpDescriptorSource();

it('reads a remote without a release in force, and one whose entry no release has, as a host would', async () => {
  const remote = billing();
  const answered = [
    { name: 'team_billing', entry: remote.entry, components: ['InvoiceBanner'], formComponents: [], props: {} },
  ];
  expect(await readEntryRemotes([remote], [], [], [], source)).toEqual({ answered, unchecked: [] });
  // A new entry: a host reads it and serves it in place of the release in force once the file is taken.
  const older = release('https://billing.example.com/0.1.0/mf-manifest.json');
  expect(await readEntryRemotes([remote], [older], [older], [], source)).toEqual({ answered, unchecked: [] });
});

it('leaves to its release in force a remote whose entry a release of it has, without asking its origin', async () => {
  const remote = billing();
  const inForce = release(remote.entry);
  const asked = origin.requests.length;
  expect(await readEntryRemotes([remote], [inForce], [inForce], [], source)).toEqual({ answered: [], unchecked: [] });
  expect(origin.requests.length).toBe(asked);
});

it('says, without checking it, that a remote claiming a component another serves is not served', async () => {
  const served = [{ name: 'team_marketing', components: ['InvoiceBanner'] }];
  expect(await readEntryRemotes([billing()], [], [], served, source)).toEqual({
    answered: [],
    unchecked: [
      'Remote "team_billing" answered, but its component "InvoiceBanner" is already provided by "team_marketing": ' +
        'the hosts take the file without serving it (each logs why); its slots are not checked here.',
    ],
  });
});
