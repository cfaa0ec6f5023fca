import type { InspectedRemote, JsonSchema, RemoteDescriptor } from '../../shared';
import type { Logger } from 'pino';
import {
  formatSlotProblem,
  placedSlots,
  SlotContract,
  type ContractRemotes,
  type PlacedSlot,
  type SlotProblem,
} from '../slots/slot-contract';
import type { ConfiguredSlot } from './configured-slots';
import { parseRemoteDescriptorFile } from './remote-names';
import type { PendingRemote, RemotesConfig } from './remotes-config';

export interface RemoteCatalogueOptions {
  logger: Logger;
  /** How long one descriptor request may take; a remote that does not answer in time is retried later. */
  descriptorTimeoutMs?: number;
  /** How often a remote whose descriptor could not be read is asked again. */
  retryIntervalMs?: number;
  /** Pass a kit dev server's `devEvents` on to the host (development servers only: it makes pages reload). */
  passDevEvents?: boolean;
}

/** What the catalogue knows of a remote declared by entry only. */
type PendingState =
  | { status: 'waiting' }
  | { status: 'ready'; descriptor: RemoteDescriptor; props: Readonly<Record<string, JsonSchema>> }
  | { status: 'failing'; reason: string };

export const DEFAULT_DESCRIPTOR_TIMEOUT_MS = 3000;
export const DEFAULT_DESCRIPTOR_RETRY_MS = 30_000;

/**
 * The remotes the server serves now, and the slots the configuration places for them. Remotes built here or listed
 * with their components are known at once; a kit-built remote declared by entry only is known once its
 * `slots-remote.json` has been read from its origin. Until then (unreachable, timed out, invalid) it is logged with
 * its name, retried, and its configured slots are left out, so a remote that is down never stops the server or
 * sends the host components it cannot load. `replace` swaps in a re-read configuration (SIGHUP).
 */
export class RemoteCatalogue {
  private config: RemotesConfig;
  private readonly states = new Map<string, PendingState>();
  private readonly listeners = new Set<() => void>();
  private retryTimer: NodeJS.Timeout | null = null;
  private currentVersion = 0;
  private closed = false;
  private readonly timeoutMs: number;
  private readonly retryMs: number;
  /** The props contract every slot is checked against (its validators compiled once, shared with the app). */
  readonly contract = new SlotContract();

  constructor(
    config: RemotesConfig,
    private readonly options: RemoteCatalogueOptions,
  ) {
    this.config = config;
    this.timeoutMs = options.descriptorTimeoutMs ?? DEFAULT_DESCRIPTOR_TIMEOUT_MS;
    this.retryMs = options.retryIntervalMs ?? DEFAULT_DESCRIPTOR_RETRY_MS;
    for (const remote of config.pending) this.states.set(remote.name, { status: 'waiting' });
  }

  /** Changes whenever what `remotes()`, `slots()` or `entries()` return changes. */
  get version(): number {
    return this.currentVersion;
  }

  get allowedOrigins(): readonly string[] | '*' {
    return this.config.allowedOrigins;
  }

  /** The remotes the host registers: those known now, in configuration order. */
  remotes(): RemoteDescriptor[] {
    const ready = this.config.pending.flatMap((remote) => {
      const state = this.states.get(remote.name);
      return state?.status === 'ready' ? [state.descriptor] : [];
    });
    return [...this.config.remotes, ...ready];
  }

  /** Every configured entry, answering or not: the origins the page's Content-Security-Policy allows. */
  entries(): string[] {
    return [...this.config.remotes, ...this.config.pending].map((remote) => remote.entry);
  }

  /**
   * The configured slots that can render now, in file order: those of a remote that answered, naming a component it
   * provides, with props its schema accepts. The others are left out (see {@link configuredSlotProblems}).
   */
  slots(): ConfiguredSlot[] {
    const remotes = this.contractRemotes();
    return placedConfiguredSlots(this.config.slots)
      .filter(({ placed }) => this.contract.check(placed, remotes).length === 0)
      .map(({ configured }) => configured);
  }

  /** What stops configured slots from rendering now (their remote down, a component it lacks, invalid props). */
  configuredSlotProblems(config: RemotesConfig = this.config): SlotProblem[] {
    const remotes = this.contractRemotes(config);
    return placedConfiguredSlots(config.slots).flatMap(({ placed }) => this.contract.check(placed, remotes));
  }

  /**
   * The remotes as the slot contract sees them: those known now with their props schemas, those disabled, those not
   * answering. For another configuration (a reload being checked), remotes declared by entry keep what was read of
   * them while their descriptor URL is the same.
   */
  contractRemotes(config: RemotesConfig = this.config): ContractRemotes {
    const states = config === this.config ? this.states : this.statesFor(config);
    const known: Array<ContractRemotes['known'][number]> = config.remotes.map((remote) => ({
      name: remote.name,
      components: remote.components,
      formComponents: remote.formComponents,
      props: config.schemas.get(remote.name) ?? {},
    }));
    const waiting: Array<ContractRemotes['waiting'][number]> = [];
    for (const remote of config.pending) {
      const state = states.get(remote.name) ?? { status: 'waiting' as const };
      if (state.status === 'ready') {
        const { components, formComponents } = state.descriptor;
        known.push({ name: remote.name, components, formComponents, props: state.props });
      } else {
        waiting.push(state.status === 'failing' ? { name: remote.name, reason: state.reason } : { name: remote.name });
      }
    }
    return { known, disabled: config.disabled, waiting };
  }

  /** Every configured remote with what is known of it, for the slot inspector. */
  inspectRemotes(): InspectedRemote[] {
    const builtIn = new Set(this.config.sources.builtIn);
    const known = this.config.remotes.map((remote): InspectedRemote => {
      const built = builtIn.has(remote.name) && remote.entry === `/remotes/${remote.name}/mf-manifest.json`;
      return {
        name: remote.name,
        entry: remote.entry,
        status: built ? 'built' : 'listed',
        components: [...remote.components],
        formComponents: [...remote.formComponents],
        schemaComponents: Object.keys(this.config.schemas.get(remote.name) ?? {}),
      };
    });
    const pending = this.config.pending.map((remote): InspectedRemote => {
      const state = this.states.get(remote.name) ?? { status: 'waiting' as const };
      if (state.status === 'ready') {
        const { components, formComponents } = state.descriptor;
        const schemaComponents = Object.keys(state.props);
        return {
          name: remote.name,
          entry: remote.entry,
          status: 'answered',
          components,
          formComponents,
          schemaComponents,
        };
      }
      return {
        name: remote.name,
        entry: remote.entry,
        status: state.status === 'failing' ? 'not-available' : 'waiting',
        ...(state.status === 'failing' ? { reason: state.reason } : {}),
        components: [],
        formComponents: [],
        schemaComponents: [],
      };
    });
    const disabled = this.config.disabled.map(
      (remote): InspectedRemote => ({
        name: remote.name,
        entry: '',
        status: 'disabled',
        components: [...remote.components],
        formComponents: [],
        schemaComponents: [],
      }),
    );
    return [...known, ...pending, ...disabled];
  }

  /** Every slot the configuration places, those left out included (a remote not answering, a wrong component). */
  configuredSlots(): readonly ConfiguredSlot[] {
    return this.config.slots;
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the descriptor of every remote not known yet, at once and each bounded by the timeout. */
  async refresh(): Promise<void> {
    const waiting = this.config.pending.filter((remote) => this.states.get(remote.name)?.status !== 'ready');
    const outcomes = await Promise.all(waiting.map((remote) => this.read(remote)));
    if (this.closed) return;
    let changed = false;
    waiting.forEach((remote, index) => {
      if (!this.config.pending.includes(remote)) return; // replaced meanwhile
      const outcome = outcomes[index]!;
      const before = this.states.get(remote.name);
      this.states.set(remote.name, outcome);
      if (outcome.status === 'ready') {
        changed = true;
        this.options.logger.info(
          { remote: remote.name, components: outcome.descriptor.components },
          `Remote "${remote.name}" answered: ${outcome.descriptor.components.length} component(s).`,
        );
        const remotes = this.contractRemotes();
        const problems = placedConfiguredSlots(this.config.slots)
          .filter(({ configured }) => configured.remote === remote.name)
          .flatMap(({ placed }) => this.contract.check(placed, remotes));
        for (const problem of problems) {
          this.options.logger.error(
            { remote: remote.name, component: problem.component, location: problem.location, path: problem.path },
            `REMOTES_CONFIG slot ${formatSlotProblem(problem)}; that slot is left out.`,
          );
        }
      } else if (outcome.status === 'failing' && (before?.status !== 'failing' || before.reason !== outcome.reason)) {
        this.options.logger.warn(
          { remote: remote.name, descriptor: remote.descriptorUrl },
          `Remote "${remote.name}" is not available (${outcome.reason}); its slots are left out until it answers ` +
            `(asked again every ${Math.round(this.retryMs / 1000)} s).`,
        );
      }
    });
    if (changed) this.changed();
    this.scheduleRetry();
  }

  /** Swaps in a re-read configuration, keeping what is known of remotes whose entry did not change. */
  replace(config: RemotesConfig): Promise<void> {
    const states = this.statesFor(config);
    this.states.clear();
    for (const [name, state] of states) this.states.set(name, state);
    this.config = config;
    this.changed();
    return this.refresh();
  }

  /** What is known of the remotes `config` declares by entry: kept for those whose descriptor URL is unchanged. */
  private statesFor(config: RemotesConfig): Map<string, PendingState> {
    const previous = new Map(this.config.pending.map((remote) => [remote.name, remote]));
    const states = new Map<string, PendingState>();
    for (const remote of config.pending) {
      const kept = previous.get(remote.name)?.descriptorUrl === remote.descriptorUrl && this.states.get(remote.name);
      states.set(remote.name, kept || { status: 'waiting' });
    }
    return states;
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private changed(): void {
    this.currentVersion++;
    for (const listener of this.listeners) listener();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    if (![...this.states.values()].some((state) => state.status !== 'ready')) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.refresh();
    }, this.retryMs);
    // Retrying never keeps the process alive on its own.
    this.retryTimer.unref();
  }

  private async read(remote: PendingRemote): Promise<PendingState> {
    try {
      const response = await fetch(remote.descriptorUrl, {
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: { Accept: 'application/json' },
      });
      if (!response.ok) return { status: 'failing', reason: `${remote.descriptorUrl} answered ${response.status}` };
      // Parsed here, not with response.json(): the checks expect plain objects of this realm.
      const file = parseRemoteDescriptorFile(JSON.parse(await response.text()) as unknown, remote.descriptorUrl);
      if (file.name !== remote.name) {
        return {
          status: 'failing',
          reason: `${remote.descriptorUrl} describes remote "${file.name}", not "${remote.name}"`,
        };
      }
      const owner = this.ownerOfAny(file.components, remote.name);
      if (owner) return { status: 'failing', reason: owner };
      const descriptor: RemoteDescriptor = {
        name: remote.name,
        entry: remote.entry,
        components: file.components,
        formComponents: file.formComponents,
      };
      if (this.options.passDevEvents && file.devEvents !== undefined) {
        descriptor.devEvents = new URL(file.devEvents, remote.descriptorUrl).href;
      }
      return { status: 'ready', descriptor, props: file.props ?? {} };
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `${remote.descriptorUrl} did not answer within ${this.timeoutMs} ms`
          : `${remote.descriptorUrl}: ${(error as Error).message}`;
      return { status: 'failing', reason };
    }
  }

  /** One component name, one provider: a descriptor claiming another remote's component is refused. */
  private ownerOfAny(components: readonly string[], name: string): string | null {
    for (const other of this.remotes()) {
      if (other.name === name) continue;
      const clash = components.find((component) => other.components.includes(component));
      if (clash) return `component "${clash}" is already provided by "${other.name}"`;
    }
    return null;
  }
}

/** Configured slots as placed slots, numbered per location in file order (content slots after their parent). */
function placedConfiguredSlots(
  slots: readonly ConfiguredSlot[],
): Array<{ configured: ConfiguredSlot; placed: PlacedSlot[] }> {
  const counts = new Map<string, number>();
  return slots.map((configured) => {
    const index = counts.get(configured.location.value) ?? 0;
    counts.set(configured.location.value, index + 1);
    const location = configured.location.value;
    const placed = placedSlots(location, [configured.slot], 'configuration', configured.remote, '', index);
    return { configured, placed };
  });
}
