import pino from 'pino';
import { Slot, SlotLocation } from '../../shared';
import type { ConfiguredSlot } from '../slots/configured-slots';
import type { DescriptorOutcome, DescriptorSource } from './descriptor-source';
import { RemoteRegistry } from './remote-registry';
import type { PendingRemote, RemotesConfig } from './remotes-config';

/** A source that is not HTTP (as a store of released descriptors would be): it answers what the test sets. */
class ScriptedSource implements DescriptorSource {
  readonly answers = new Map<string, DescriptorOutcome>();
  readonly asked: string[] = [];

  read(remote: PendingRemote): Promise<DescriptorOutcome> {
    this.asked.push(remote.name);
    return Promise.resolve(
      this.answers.get(remote.name) ?? {
        status: 'failing',
        failure: 'down',
        reason: 'not released yet',
      },
    );
  }

  answer(name: string, components: string[]): void {
    const descriptor = { name, entry: `https://${name}.example/mf-manifest.json`, components, formComponents: [] };
    this.answers.set(name, { status: 'ready', descriptor, props: {} });
  }
}

const RECORDS = {
  name: 'team_records',
  entry: '/remotes/team_records/mf-manifest.json',
  components: ['CopyLinkAction'],
  formComponents: [],
};

function pending(name: string, descriptorUrl = `https://${name}.example/slots-remote.json`): PendingRemote {
  return { name, entry: `https://${name}.example/mf-manifest.json`, descriptorUrl };
}

function placed(remote: string, component: string): ConfiguredSlot {
  return { remote, location: SlotLocation.tryFrom('dashboard-after-cards')!, slot: Slot.make(component, {}) };
}

function configOf(remotes: PendingRemote[], slots: ConfiguredSlot[] = []): RemotesConfig {
  return {
    remotes: [RECORDS],
    pending: remotes,
    slots,
    forms: [],
    schemas: new Map([['team_records', {}]]),
    locationRemotes: new Map(),
    disabled: [],
    allowedOrigins: [],
    sources: { builtIn: ['team_records'], configFile: null },
  };
}

let registry: RemoteRegistry | null = null;
afterEach(() => registry?.close());

function registryOf(
  config: RemotesConfig,
  source: DescriptorSource,
  retryIntervalMs = 60_000,
  followDescriptorChanges = false,
): RemoteRegistry {
  registry = new RemoteRegistry(config, {
    logger: pino({ level: 'silent' }),
    source,
    retryIntervalMs,
    followDescriptorChanges,
  });
  return registry;
}

describe('RemoteRegistry', () => {
  it('knows a remote declared by entry once its source answers, with its configured slots, and tells subscribers', async () => {
    const source = new ScriptedSource();
    source.answer('team_billing', ['InvoiceBanner']);
    const remotes = registryOf(configOf([pending('team_billing')], [placed('team_billing', 'InvoiceBanner')]), source);
    const changes = jest.fn();
    remotes.subscribe(changes);
    expect(remotes.remotes().map((remote) => remote.name)).toEqual(['team_records']);
    expect(remotes.slots()).toEqual([]);
    expect(remotes.stateOf('team_billing')).toEqual({ status: 'waiting' });

    const before = remotes.version;
    await remotes.refresh();
    expect(remotes.remotes().map((remote) => remote.name)).toEqual(['team_records', 'team_billing']);
    expect(remotes.slots().map((slot) => slot.slot.component)).toEqual(['InvoiceBanner']);
    expect(remotes.version).toBe(before + 1);
    expect(changes).toHaveBeenCalledTimes(1);
    // Every configured entry counts for the page's Content-Security-Policy, answering or not.
    expect(remotes.entries()).toEqual([RECORDS.entry, 'https://team_billing.example/mf-manifest.json']);
  });

  it('asks a source that failed again after the retry interval, then checks its origin without changing what it serves', async () => {
    const source = new ScriptedSource();
    const remotes = registryOf(configOf([pending('team_billing')]), source, 20);
    await remotes.refresh();
    expect(remotes.stateOf('team_billing')).toEqual({ status: 'failing', failure: 'down', reason: 'not released yet' });

    source.answer('team_billing', ['InvoiceBanner']);
    const answered = new Promise<void>((resolve) => remotes.subscribe(resolve));
    await answered;
    expect(remotes.stateOf('team_billing').status).toBe('ready');
    expect(remotes.originCheckOf('team_billing')?.status).toBe('answered');

    // Its origin goes down: the next check says so, and the remote stays served as it answered.
    source.answers.set('team_billing', { status: 'failing', failure: 'down', reason: 'connect ECONNREFUSED' });
    const version = remotes.version;
    const asked = source.asked.length;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(source.asked.length).toBeGreaterThan(asked);
    expect(remotes.originCheckOf('team_billing')).toEqual({
      entry: 'https://team_billing.example/mf-manifest.json',
      status: 'down',
      reason: 'connect ECONNREFUSED',
    });
    expect(remotes.stateOf('team_billing').status).toBe('ready');
    expect(remotes.remotes().map((remote) => remote.name)).toEqual(['team_records', 'team_billing']);
    expect(remotes.version).toBe(version);
  });

  it('in development, takes the new descriptor a dev server answers at a later check (a component added)', async () => {
    const source = new ScriptedSource();
    const remotes = registryOf(configOf([pending('team_billing')]), source, 60_000, true);
    source.answer('team_billing', ['InvoiceBanner']);
    await remotes.refresh();
    const version = remotes.version;

    // The same answer again changes nothing.
    await remotes.checkOrigins();
    expect(remotes.version).toBe(version);

    source.answer('team_billing', ['InvoiceBanner', 'Reminder']);
    await remotes.checkOrigins();
    expect(remotes.version).toBeGreaterThan(version);
    expect(remotes.remotes().find((remote) => remote.name === 'team_billing')?.components).toEqual([
      'InvoiceBanner',
      'Reminder',
    ]);
  });

  it('in production, keeps what a remote declared by entry answered first (a release changes it)', async () => {
    const source = new ScriptedSource();
    const remotes = registryOf(configOf([pending('team_billing')]), source, 60_000, false);
    source.answer('team_billing', ['InvoiceBanner']);
    await remotes.refresh();
    source.answer('team_billing', ['InvoiceBanner', 'Reminder']);
    await remotes.checkOrigins();
    expect(remotes.remotes().find((remote) => remote.name === 'team_billing')?.components).toEqual(['InvoiceBanner']);
  });

  it('reads which remotes a configuration declares once, not for every question about its releases', async () => {
    const release = (remote: string) => ({
      remote,
      version: 'v1',
      entry: `https://${remote}.example/v1/mf-manifest.json`,
      components: [`${remote}Widget`],
      formComponents: [],
      props: {},
      publishedBy: 'ops',
      publishedAt: '2024-01-01T00:00:00.000Z',
    });
    let reads = 0;
    /** `config` counting the reads of its declared remotes. */
    const counted = (config: RemotesConfig): RemotesConfig => {
      const { remotes: described, pending: declared, ...rest } = config;
      return Object.defineProperties(rest, {
        remotes: { enumerable: true, get: () => (reads++, described) },
        pending: { enumerable: true, get: () => (reads++, declared) },
      }) as RemotesConfig;
    };
    const remotes = registryOf(counted(configOf([pending('team_billing')])), new ScriptedSource());
    remotes.useReleases([release('team_billing'), release('team_gone')], []);
    expect(remotes.isReleased('team_billing')).toBe(true);
    reads = 0;
    for (let asked = 0; asked < 5; asked++) {
      expect(remotes.isReleased('team_billing')).toBe(true);
      expect(remotes.isReleased('team_gone')).toBe(false);
    }
    expect(reads).toBe(0);

    // Another configuration: its own declared remotes, read once.
    await remotes.replace(counted(configOf([pending('team_gone')])), false);
    reads = 0;
    expect(remotes.isReleased('team_gone')).toBe(true);
    expect(remotes.isReleased('team_billing')).toBe(false);
    expect(reads).toBeLessThanOrEqual(2);
    reads = 0;
    expect(remotes.isReleased('team_gone')).toBe(true);
    expect(reads).toBe(0);
  });

  it('refuses a descriptor claiming a component another remote provides', async () => {
    const source = new ScriptedSource();
    source.answer('team_billing', ['CopyLinkAction']);
    const remotes = registryOf(configOf([pending('team_billing')]), source);
    await remotes.refresh();
    expect(remotes.stateOf('team_billing')).toEqual({
      status: 'failing',
      failure: 'bad-answer',
      reason: 'component "CopyLinkAction" is already provided by "team_records"',
    });
    expect(remotes.remotes().map((remote) => remote.name)).toEqual(['team_records']);
  });

  it('keeps what it knows of a remote across a replace while its descriptor URL is unchanged, and forgets it else', async () => {
    const source = new ScriptedSource();
    source.answer('team_billing', ['InvoiceBanner']);
    source.answer('team_shop', ['ShopBanner']);
    const remotes = registryOf(configOf([pending('team_billing'), pending('team_shop')]), source);
    await remotes.refresh();
    source.asked.length = 0;

    await remotes.replace(configOf([pending('team_billing'), pending('team_shop', 'https://shop.example/v2.json')]));
    expect(source.asked).toEqual(['team_shop']);
    expect(remotes.remotes().map((remote) => remote.name)).toEqual(['team_records', 'team_billing', 'team_shop']);
  });

  it('checks a configuration being considered against what it knows, without taking it', async () => {
    const source = new ScriptedSource();
    source.answer('team_billing', ['InvoiceBanner']);
    const remotes = registryOf(configOf([pending('team_billing')]), source);
    await remotes.refresh();
    const next = configOf([pending('team_billing')], [placed('team_billing', 'Missing')]);
    expect(remotes.configuredSlotProblems(next).map((problem) => problem.component)).toEqual(['Missing']);
    expect(remotes.configuredSlotProblems()).toEqual([]);
    expect(remotes.config).not.toBe(next);
  });
});
