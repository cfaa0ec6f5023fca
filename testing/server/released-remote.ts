import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { OPERATOR_ROLE, REMOTE_DESCRIPTOR_FILE, Slot, type SlotLoadEvent, type VisibilityRule } from '../../shared';
import type { App } from '../../server/app';
import type { NewRelease } from '../../server/releases/release-store';
import { fakeManifest } from '../fake-manifest';
import { makeTempDir } from '../temp-dir';
import { addUser, DEMO_PASSWORD, signedInAgent, type TestAppOptions } from './test-app';

/**
 * A remote's origin serving, in every version folder alike, its descriptor file, a manifest and the entry script it
 * names (what publishing checks), and the REMOTES_CONFIG file that declares the remote: the server takes releases
 * of declared remotes only.
 */
export interface DescriptorOrigin {
  url: string;
  /** REMOTES_CONFIG listing the remote with its components (an entry on this origin): pass it as the app's env. */
  remotesConfig: string;
  /** Paths answered 404 from now on (`/v2/mf-manifest.json`): a release's files gone from its origin. */
  missing: Set<string>;
  /** Paths whose connection is reset without an answer from now on: an origin that stopped answering. */
  unanswered: Set<string>;
  close(): Promise<void>;
}

export async function startDescriptorOrigin(descriptor: {
  name: string;
  components: string[];
}): Promise<DescriptorOrigin> {
  const missing = new Set<string>();
  const unanswered = new Set<string>();
  const server = http.createServer((req, res) => {
    if (unanswered.has(req.url ?? '')) req.socket.resetAndDestroy();
    else if (missing.has(req.url ?? '')) res.writeHead(404).end();
    else if (req.url?.endsWith(REMOTE_DESCRIPTOR_FILE)) res.writeHead(200).end(JSON.stringify(descriptor));
    else if (req.url?.endsWith('/mf-manifest.json'))
      res.writeHead(200).end(JSON.stringify(fakeManifest(descriptor.name, descriptor.components)));
    else if (req.url?.endsWith('/remoteEntry.js')) res.writeHead(200).end(`var ${descriptor.name} = {};`);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = makeTempDir('slots-descriptor-origin-');
  const remotesConfig = path.join(dir.path, 'remotes.json');
  const listed = { ...descriptor, entry: `${url}/listed/remoteEntry.js` };
  fs.writeFileSync(remotesConfig, JSON.stringify({ remotes: [listed] }));
  return {
    url,
    remotesConfig,
    missing,
    unanswered,
    close: async () => {
      dir.remove();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Publishes `versions` of `remote` (from `origin`) with a team token and activates the first, as the operator
 * `operator` (created, in tenant `acme`); resolves to that operator's signed-in agent.
 */
export async function publishAndActivate(
  app: App,
  remote: string,
  origin: string,
  versions: readonly string[],
): Promise<ReturnType<typeof signedInAgent>> {
  await addUser(app, 'operator', DEMO_PASSWORD, ['acme']);
  await app.users.setRole('operator', OPERATOR_ROLE);
  const token = (await app.releases.teamTokens.create(remote, null)).token;
  for (const version of versions) {
    await request(app.handler)
      .post(`/api/remotes/${remote}/releases`)
      .set('Authorization', `Bearer ${token}`)
      .send({ version, entry: `${origin}/${version}/mf-manifest.json` })
      .expect(201);
  }
  const operator = await signedInAgent(app, 'operator');
  await operator.post(`/api/remotes/${remote}/activate`).send({ version: versions[0] }).expect(200);
  return operator;
}

/**
 * Writes a release of `remote` straight into the store and puts it in force, as a publish and an activation would,
 * with no origin to ask: a database whose release in force says what the remote provides.
 */
export async function storeReleaseInForce(
  app: App,
  release: Pick<NewRelease, 'remote' | 'version' | 'entry' | 'components'> & Partial<Pick<NewRelease, 'props'>>,
): Promise<void> {
  const { remote, version } = release;
  await app.releases.store.publish({ formComponents: [], props: {}, publishedBy: 'token:1', ...release });
  await app.releases.store.changeRollout({
    remote,
    action: 'activate',
    actor: 'admin',
    next: { active: version, canary: null },
  });
}

/** `count` events of one slot, the first `failing` of them failed in the render phase. */
export function slotLoadEvents(
  slot: Pick<SlotLoadEvent, 'remote' | 'component' | 'location'>,
  count: number,
  failing = 0,
): SlotLoadEvent[] {
  return Array.from({ length: count }, (_, index) =>
    index < failing
      ? { ...slot, outcome: 'failed', phase: 'render', kind: 'render-error', loadMs: 40, startMs: 300 }
      : { ...slot, outcome: 'rendered', phase: null, kind: null, loadMs: 120 + index, startMs: 300 },
  );
}

/**
 * The options of a test app whose slots place `slots` (each at its location): slot events count only slots placed.
 * Their remote is known once a release of it is published, after the start: the slot check logs them meanwhile.
 */
export function placedSlotsOptions(
  slots: ReadonlyArray<Pick<SlotLoadEvent, 'component' | 'location'> & { visibleWhen?: VisibilityRule }>,
): Pick<TestAppOptions, 'configure' | 'slotProblems'> {
  return {
    slotProblems: 'log',
    configure: (app) => {
      for (const { location, component, visibleWhen } of slots) {
        const slot = Slot.make(component);
        app.registerSlots({ [location]: visibleWhen === undefined ? slot : slot.placed({ visibleWhen }) });
      }
    },
  };
}
