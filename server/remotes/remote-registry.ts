/*
 * Above 300 lines for one reason: the remotes served are one state (the configuration's remotes, their descriptors'
 * answers, the releases in force, the origins' checks) that every read must see at one version, so its parts share a
 * class. The rules live beside it: origin checks in origin-checks.ts, retries in descriptor-retry.ts, the slot
 * contract in slots/slot-contract.ts.
 */
import type { RemoteDescriptor, RemoteRelease } from '../../shared';
import type { Logger } from 'pino';
import { formatSlotProblem, SlotContract, type ContractRemotes, type SlotProblem } from '../slots/slot-contract';
import { placedConfiguredForm, type ConfiguredFormSlot } from '../slots/configured-forms';
import { placedConfiguredSlots, type ConfiguredSlot } from '../slots/configured-slots';
import { DescriptorRetry } from './descriptor-retry';
import type { DescriptorOutcome, DescriptorSource } from './descriptor-source';
import { componentOwnershipProblem } from './component-ownership';
import { OriginChecks, type OriginCheck } from './origin-checks';
import { descriptorUrlOf, type PendingRemote, type RemotesConfig } from './remotes-config';
import type { ReleaseTags } from './release-tags';
import { childContextOf, type TraceContext } from '../observability/trace-context';

export interface RemoteRegistryOptions {
  logger: Logger;
  /** Where the descriptors of remotes declared by entry only come from (over HTTP: HttpDescriptorSource). */
  source: DescriptorSource;
  /**
   * How often a remote whose descriptor could not be had is asked again, and the origins of the remotes served from
   * another origin are checked (default 30 s).
   */
  retryIntervalMs?: number;
  /** Signs the release each released remote is served from (its descriptor's `releaseTag`); none: no tags. */
  releaseTags?: ReleaseTags;
  /**
   * Development: a remote declared by entry whose origin answers another descriptor at a later check (a team's dev
   * server rebuilt with a component added, or a props schema changed) is taken with it, as a restart would. Off in
   * production, where what a remote provides changes by a release, checked before it is in force.
   */
  followDescriptorChanges?: boolean;
}

/**
 * What else refuses a configured form slot besides the props contract, given the remotes as the slot check sees them:
 * set by the slot check (a prop naming a field its resource lacks, slot-check/form-field-props.ts), which knows the
 * resources this folder sits below.
 */
export type FormSlotCheck = (form: ConfiguredFormSlot, remotes: ContractRemotes) => SlotProblem[];

/** What the registry knows of a remote declared by entry only: nothing yet, or what its source last answered. */
export type RemoteState = { status: 'waiting' } | DescriptorOutcome;

const WAITING: RemoteState = { status: 'waiting' };

type KnownRemote = ContractRemotes['known'][number];

/** The contract of a remote the configuration describes itself (built in, or REMOTES_CONFIG's descriptor). */
function describedContract(config: RemotesConfig, remote: RemoteDescriptor): KnownRemote {
  const { name, components, formComponents } = remote;
  return { name, components, formComponents, props: config.schemas.get(name) ?? {} };
}

/** What a remote declared by entry provides, as a key: two answers of one key change nothing. */
function contractKey(state: Extract<RemoteState, { status: 'ready' }>): string {
  const { components, formComponents } = state.descriptor;
  return JSON.stringify([components, formComponents, state.props]);
}

/** The contract of a remote declared by entry, from what its origin answered. */
function answeredContract(name: string, state: Extract<RemoteState, { status: 'ready' }>): KnownRemote {
  const { components, formComponents } = state.descriptor;
  return { name, components, formComponents, props: state.props };
}

/**
 * The remotes the server serves now, and the slots the configuration places for them. Built-in remotes and
 * configured remotes listed with their components are known at once; a kit-built remote declared by entry only is
 * known once its source (`options.source`) has answered with its descriptor. Until then (unreachable, timed out,
 * invalid) it is logged with its name, asked again, and its configured slots are left out, so a remote that is down
 * never stops the server or sends the host components it cannot load. `replace` swaps in a re-read configuration
 * (SIGHUP). The registry holds the state only: how descriptors are obtained is the source's job.
 */
export class RemoteRegistry {
  private current: RemotesConfig;
  private readonly states = new Map<string, RemoteState>();
  private readonly listeners = new Set<() => void>();
  private readonly retry: DescriptorRetry;
  /** The last answer of each remote's origin: what its status says (descriptor-status.ts). */
  private readonly origins: OriginChecks;
  /** Remotes with an active release: their stored descriptor, which wins over the file and the build. */
  private released = new Map<string, RemoteRelease>();
  /** The entries of the releases in force (active, canaries): the page's CSP allows their origins. */
  private releaseEntries: string[] = [];
  /** What a reload being considered would make releases (its file's changed entries, read): its check sees them. */
  private considered: ReadonlyMap<string, RemoteRelease> = new Map();
  /** Once that reload is taken, until its releases are written: served here too (serveConsidered). */
  private servingConsidered = false;
  /**
   * The names each configuration declares (built in, or in REMOTES_CONFIG), made once per configuration: every
   * request asks whether its remotes are released. A configuration is never changed in place, only replaced.
   */
  private readonly declaredNames = new WeakMap<RemotesConfig, ReadonlySet<string>>();
  private currentVersion = 0;
  private closed = false;
  private formSlotCheck: FormSlotCheck = () => [];
  /** The props contract every slot is checked against (its validators compiled once, shared with the app). */
  readonly contract = new SlotContract();

  constructor(
    config: RemotesConfig,
    private readonly options: RemoteRegistryOptions,
  ) {
    this.current = config;
    this.retry = new DescriptorRetry(() => void this.poll(), options.retryIntervalMs);
    this.origins = new OriginChecks(options.logger, this.retry.intervalMs);
    for (const remote of config.pending) this.states.set(remote.name, WAITING);
  }

  /** Changes whenever what `remotes()`, `slots()` or `entries()` return changes. */
  get version(): number {
    return this.currentVersion;
  }

  /** The configuration in use (the last one read or reloaded). */
  get config(): RemotesConfig {
    return this.current;
  }

  get allowedOrigins(): readonly string[] | '*' {
    return this.current.allowedOrigins;
  }

  /** What is known now of the remote `name` declares by entry (waiting when it is not one of them). */
  stateOf(name: string): RemoteState {
    return this.states.get(name) ?? WAITING;
  }

  /** The remotes the host registers: those known now, in configuration order. */
  remotes(): RemoteDescriptor[] {
    const releasedNow = this.releasedIn(this.current);
    const ready = this.current.pending.flatMap((remote) => {
      const state = this.states.get(remote.name);
      return state?.status === 'ready' && !releasedNow.has(remote.name) ? [state.descriptor] : [];
    });
    const configured = this.current.remotes.filter((remote) => !releasedNow.has(remote.name));
    const released = [...releasedNow.values()].map((release) => this.descriptorOfRelease(release));
    return [...configured, ...ready, ...released];
  }

  /** What the host registers of a release: its entry and components, and its signed version (release-tags.ts). */
  descriptorOfRelease(release: RemoteRelease): RemoteDescriptor {
    const { releaseTags } = this.options;
    return {
      name: release.remote,
      entry: release.entry,
      components: release.components,
      formComponents: release.formComponents,
      ...(releaseTags ? { releaseTag: releaseTags.tag(release.remote, release.version) } : {}),
    };
  }

  /**
   * Takes the remotes' active releases (release-snapshot.ts): a released remote is served and checked with its
   * stored descriptor, never read from its origin, and `entries` (of the active releases and running canaries) join
   * the page's CSP. A release never activated, or rolled back from, is left out: a page cannot load it.
   */
  useReleases(active: readonly RemoteRelease[], entries: readonly string[]): void {
    const released = new Map(active.map((release) => [release.remote, release]));
    if (sameReleases(this.released, released) && this.releaseEntries.join('\n') === entries.join('\n')) return;
    this.released = released;
    this.releaseEntries = [...entries];
    this.changed();
    // A release newly in force is asked at once: its status would otherwise say nothing until the next round.
    void this.checkOrigins((remote) => this.origins.of(remote.name, remote.entry) === undefined);
    this.retry.schedule(this.somethingToAsk());
  }

  /**
   * The active releases `config` leaves in force: those of the remotes it declares (built in, or in REMOTES_CONFIG).
   * A remote it switches off (`"enabled": false`) stays off, and one taken out of the file leaves the pages with it,
   * as a remote never released does: releases are versions of a declared remote, not a way to keep one.
   */
  private releasedIn(config: RemotesConfig): ReadonlyMap<string, RemoteRelease> {
    const declared = this.declaredIn(config);
    const withConsidered = config === this.current ? this.servingConsidered : this.considered.size > 0;
    const released = withConsidered ? new Map([...this.released, ...this.considered]) : this.released;
    if ([...released.keys()].every((name) => declared.has(name))) return released;
    return new Map([...released].filter(([name]) => declared.has(name)));
  }

  /**
   * The releases a reload being considered would make of its file's changed entries (read from their origins, not
   * written yet), for the check of that configuration only: what is served stays as it is. Empty: none considered.
   */
  consider(releases: readonly RemoteRelease[]): void {
    this.considered = new Map(releases.map((release) => [release.remote, release]));
    if (!this.servingConsidered) return;
    // Written since (or given up): what the database holds is served again.
    this.servingConsidered = false;
    this.changed();
  }

  /**
   * The reload considered is taken: its releases are served here from now on, as its check judged the file with
   * them, until they are written and read back (consider([]) ends it). Between the two, the file's slots of a
   * component only the new entry has would otherwise be left out, and logged as unable to render.
   */
  serveConsidered(): void {
    this.servingConsidered = this.considered.size > 0;
  }

  private declaredIn(config: RemotesConfig): ReadonlySet<string> {
    let names = this.declaredNames.get(config);
    if (names === undefined) {
      names = new Set([...config.remotes, ...config.pending].map((remote) => remote.name));
      this.declaredNames.set(config, names);
    }
    return names;
  }

  /**
   * Every configured entry (built-in ones are relative: 'self'), answering or not, and those of the releases in
   * force: the origins every page's CSP allows (a session's previews are added to its own pages only).
   */
  entries(): string[] {
    return [
      ...[...this.current.remotes, ...this.current.pending].map((remote) => remote.entry),
      ...this.releaseEntries,
    ];
  }

  /**
   * The configured slots that can render now, in file order: those of a remote that answered, naming a component it
   * provides, with props its schema accepts. The others are left out (see {@link configuredSlotProblems}).
   */
  slots(): ConfiguredSlot[] {
    return this.renderableSlots(this.current).renderable;
  }

  /**
   * The slots of `config` split as {@link slots} splits the configuration in use: those that can render now, and
   * those left out with their problems (the placements preview asks this of a draft).
   */
  renderableSlots(config: RemotesConfig): {
    renderable: ConfiguredSlot[];
    leftOut: Array<{ configured: ConfiguredSlot; problems: SlotProblem[] }>;
  } {
    const remotes = this.contractRemotes(config);
    const renderable: ConfiguredSlot[] = [];
    const leftOut: Array<{ configured: ConfiguredSlot; problems: SlotProblem[] }> = [];
    for (const { configured, placed } of placedConfiguredSlots(config.slots)) {
      const problems = this.contract.check(placed, remotes);
      if (problems.length === 0) renderable.push(configured);
      else leftOut.push({ configured, problems });
    }
    return { renderable, leftOut };
  }

  /**
   * The configured form slots that can render now, in file order: of a remote that answered, naming one of its form
   * components, with props its schema accepts and that the {@link checkFormSlotsWith} check clears (their place in
   * the form is the resource registry's to find).
   */
  formSlots(): ConfiguredFormSlot[] {
    const remotes = this.contractRemotes();
    return this.current.forms.filter(
      (configured) =>
        this.contract.check([placedConfiguredForm(configured)], remotes).length === 0 &&
        this.formSlotCheck(configured, remotes).length === 0,
    );
  }

  /**
   * Leaves out of {@link formSlots} the form slots `check` finds a problem with, from now on: a remote that answers
   * after the start places its form slots through here, with no start, reload or release check to refuse them.
   */
  checkFormSlotsWith(check: FormSlotCheck): void {
    this.formSlotCheck = check;
    this.changed();
  }

  /**
   * What stops configured slots and form slots from rendering now (their remote down, a component it lacks or does
   * not list among its form components, invalid props).
   */
  configuredSlotProblems(config: RemotesConfig = this.current): SlotProblem[] {
    const remotes = this.contractRemotes(config);
    const placed = [
      ...placedConfiguredSlots(config.slots).flatMap(({ placed: slots }) => slots),
      ...config.forms.map(placedConfiguredForm),
    ];
    return this.contract.check(placed, remotes);
  }

  /**
   * The remotes as the slot check sees them: those known now with their props schemas, those disabled, those not
   * answering. For another configuration (a reload being checked), remotes declared by entry keep what was read of
   * them while their descriptor URL is the same.
   */
  contractRemotes(config: RemotesConfig = this.current): ContractRemotes {
    const states = config === this.current ? this.states : this.statesFor(config);
    const releasedNow = this.releasedIn(config);
    const known: KnownRemote[] = config.remotes
      .filter((remote) => !releasedNow.has(remote.name))
      .map((remote) => describedContract(config, remote));
    for (const release of releasedNow.values()) {
      const { remote: name, components, formComponents, props } = release;
      known.push({ name, components, formComponents, props });
    }
    const waiting: Array<ContractRemotes['waiting'][number]> = [];
    for (const remote of config.pending) {
      if (releasedNow.has(remote.name)) continue;
      const state = states.get(remote.name) ?? WAITING;
      if (state.status === 'ready') {
        known.push(answeredContract(remote.name, state));
      } else {
        waiting.push(state.status === 'failing' ? { name: remote.name, reason: state.reason } : { name: remote.name });
      }
    }
    return { known, disabled: config.disabled, waiting };
  }

  /**
   * Two remotes `config` would serve that provide one component (component-ownership.ts), or null. The file alone
   * shows only its own remotes' and the built-in ones' components, which loadRemotesConfig checks; this adds what
   * their origins gave: the releases in force (those a reload considers included) and the descriptors answered.
   */
  componentClash(config: RemotesConfig): string | null {
    const releasedNow = this.releasedIn(config);
    const owners = this.contractRemotes(config).known.map(({ name, components }) => {
      const release = releasedNow.get(name);
      return release === undefined ? { name, components } : { name, components, release: release.version };
    });
    return componentOwnershipProblem(owners, config.sources.configFile);
  }

  /**
   * What the configuration itself serves as `name`, releases aside (REMOTES_CONFIG's descriptor, a built-in remote's,
   * or what its origin answered): its contract, for checking it before a release in force is taken away. Null when
   * only releases serve the remote, or its origin has not answered.
   */
  ownBuildContract(name: string): KnownRemote | null {
    const described = this.current.remotes.find((remote) => remote.name === name);
    if (described) return describedContract(this.current, described);
    const state = this.current.pending.some((remote) => remote.name === name) ? this.states.get(name) : undefined;
    return state?.status === 'ready' ? answeredContract(name, state) : null;
  }

  /** Every slot the configuration places, those left out included (a remote not answering, a wrong component). */
  configuredSlots(): readonly ConfiguredSlot[] {
    return this.current.slots;
  }

  /** Every form slot the configuration places, those left out included. */
  configuredForms(): readonly ConfiguredFormSlot[] {
    return this.current.forms;
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Asks the source for the descriptor of every remote not known yet, all at once. */
  async refresh(): Promise<void> {
    // A remote with an active release is never read from its origin here: a restart does not depend on it.
    const releasedNow = this.releasedIn(this.current);
    const waiting = this.current.pending.filter(
      (remote) => this.states.get(remote.name)?.status !== 'ready' && !releasedNow.has(remote.name),
    );
    // A trace per request, named in the log line of a failure: the remote's own logs can be matched to ours.
    const traces = waiting.map(() => childContextOf(null));
    const answers = await Promise.all(waiting.map((remote, index) => this.options.source.read(remote, traces[index])));
    if (this.closed) return;
    // Against the remotes known before this round, as each answer arrived.
    const outcomes = answers.map((answer, index) => this.refuseClash(waiting[index]!.name, answer));
    let changed = false;
    waiting.forEach((remote, index) => {
      if (this.take(remote, outcomes[index]!, traces[index])) changed = true;
    });
    if (changed) this.changed();
    this.retry.schedule(this.somethingToAsk());
  }

  /**
   * Asks the origin of every remote served from one (its descriptor known, or its release in force with an absolute
   * entry) for the descriptor beside the entry served, all at once: what it comes to is the remote's status (down,
   * timed out, a bad answer, answered), logged when it changes. What is served does not change: a page meets an
   * origin that is down slot by slot, and loads the remote again once it is back.
   */
  async checkOrigins(which: (remote: PendingRemote) => boolean = () => true): Promise<void> {
    const served = this.servedFromOrigins().filter(which);
    if (served.length === 0) return;
    const traces = served.map(() => childContextOf(null));
    const answers = await Promise.all(served.map((remote, index) => this.options.source.read(remote, traces[index])));
    if (this.closed) return;
    served.forEach((remote, index) =>
      this.origins.record(remote.name, remote.entry, answers[index]!, true, traces[index]!.traceId),
    );
    if (this.options.followDescriptorChanges) this.followDescriptorChanges(served, answers, traces);
  }

  /** Takes the new descriptors of remotes declared by entry (not released) whose origin now answers another one. */
  private followDescriptorChanges(
    served: readonly PendingRemote[],
    answers: readonly DescriptorOutcome[],
    traces: readonly TraceContext[],
  ): void {
    let changed = false;
    served.forEach((remote, index) => {
      const answer = answers[index]!;
      const known = this.states.get(remote.name);
      if (answer.status !== 'ready' || known?.status !== 'ready' || this.isReleased(remote.name)) return;
      if (contractKey(answer) === contractKey(known)) return;
      const outcome = this.refuseClash(remote.name, answer);
      if (this.take(remote, outcome, traces[index])) changed = true;
    });
    if (changed) this.changed();
  }

  /** The last answer of `name`'s origin for the entry it is served from now, or undefined when none came yet. */
  originCheckOf(name: string): OriginCheck | undefined {
    const release = this.releasedIn(this.current).get(name);
    const entry = release?.entry ?? this.current.pending.find((remote) => remote.name === name)?.entry;
    return entry === undefined ? undefined : this.origins.of(name, entry);
  }

  /** The remotes served from another origin, each with the entry served and the descriptor beside it. */
  private servedFromOrigins(): PendingRemote[] {
    const releasedNow = this.releasedIn(this.current);
    const answered = this.current.pending.filter(
      (remote) => !releasedNow.has(remote.name) && this.states.get(remote.name)?.status === 'ready',
    );
    const released = [...releasedNow.values()].flatMap(({ remote: name, entry }) => {
      // A release of a remote this server builds (a relative entry) is served from here: nothing to ask.
      const descriptorUrl = descriptorUrlOf(entry);
      return descriptorUrl === null ? [] : [{ name, entry, descriptorUrl }];
    });
    return [...answered, ...released];
  }

  /** Whether the timer has work: a remote not known yet to ask again, or an origin to check. */
  private somethingToAsk(): boolean {
    const releasedNow = this.releasedIn(this.current);
    const waiting = this.current.pending.some(
      (remote) => this.states.get(remote.name)?.status !== 'ready' && !releasedNow.has(remote.name),
    );
    return waiting || this.servedFromOrigins().length > 0;
  }

  /** One round of the timer: the remotes not known yet, then the origins of those served. */
  private async poll(): Promise<void> {
    await this.refresh();
    await this.checkOrigins();
  }

  /**
   * Takes what another reader of `remote`'s descriptor obtained (the import of REMOTES_CONFIG's entries as
   * releases, releases/config-releases.ts), so the status shown is that of the last request, whoever made it.
   * @returns false for a remote of another configuration than the one in use (a reload being considered)
   */
  record(remote: PendingRemote, outcome: DescriptorOutcome, trace?: TraceContext): boolean {
    if (this.closed) return false;
    if (!this.current.pending.includes(remote)) return false; // of a configuration not (or no longer) in use
    // Logged as the registry's own requests are: a kit's development server the import leaves live is logged only here.
    const served = this.take(remote, this.refuseClash(remote.name, outcome), trace);
    if (served && !this.isReleased(remote.name)) this.changed();
    return true;
  }

  /** Keeps `outcome` as `remote`'s state and logs a change; returns whether the remotes served changed. */
  private take(remote: PendingRemote, outcome: DescriptorOutcome, trace?: TraceContext): boolean {
    if (!this.current.pending.includes(remote)) return false; // replaced meanwhile
    const before = this.states.get(remote.name);
    this.states.set(remote.name, outcome);
    // Logged below when it is not served yet; by the checks when a release serves it from this same entry.
    const release = this.releasedIn(this.current).get(remote.name);
    this.origins.record(remote.name, remote.entry, outcome, release?.entry === remote.entry, trace?.traceId);
    if (outcome.status === 'ready') {
      this.logAnswered(remote.name, outcome.descriptor);
      return true;
    }
    if (before?.status !== 'failing' || before.reason !== outcome.reason) {
      const every = `every ${Math.round(this.retry.intervalMs / 1000)} s`;
      this.options.logger.warn(
        {
          remote: remote.name,
          descriptor: remote.descriptorUrl,
          failure: outcome.failure,
          ...(trace ? { trace_id: trace.traceId } : {}),
        },
        release === undefined
          ? `Remote "${remote.name}" is not available (${outcome.reason}); its slots are left out until it answers ` +
              `(asked again ${every}).`
          : `REMOTES_CONFIG's entry of remote "${remote.name}" is not available (${outcome.reason}); release ` +
              `"${release.version}" stays in force, and the entry is asked again ${every}: it becomes the release ` +
              'in force when it answers.',
      );
    }
    return false;
  }

  /** The release in force that serves `name` (active, declared by the configuration), or undefined. */
  releaseOf(name: string): RemoteRelease | undefined {
    return this.releasedIn(this.current).get(name);
  }

  /** Whether `name` is served from its active release (its descriptor is then the release's; its origin only checked). */
  isReleased(name: string): boolean {
    return this.releasedIn(this.current).has(name);
  }

  /**
   * Swaps in a re-read configuration (or one with other database placements), keeping what is known of remotes whose
   * entry did not change; `askRemotes` false leaves the remotes not known yet to the next refresh.
   */
  replace(config: RemotesConfig, askRemotes = true): Promise<void> {
    const states = this.statesFor(config);
    this.states.clear();
    for (const [name, state] of states) this.states.set(name, state);
    this.current = config;
    this.changed();
    return askRemotes ? this.refresh() : Promise.resolve();
  }

  close(): void {
    this.closed = true;
    this.retry.close();
  }

  /** What is known of the remotes `config` declares by entry: kept for those whose descriptor URL is unchanged. */
  private statesFor(config: RemotesConfig): Map<string, RemoteState> {
    const previous = new Map(this.current.pending.map((remote) => [remote.name, remote]));
    const states = new Map<string, RemoteState>();
    for (const remote of config.pending) {
      const kept = previous.get(remote.name)?.descriptorUrl === remote.descriptorUrl && this.states.get(remote.name);
      states.set(remote.name, kept || WAITING);
    }
    return states;
  }

  /** One component name, one provider: a descriptor claiming another remote's component is refused. */
  private refuseClash(name: string, outcome: DescriptorOutcome): DescriptorOutcome {
    if (outcome.status !== 'ready') return outcome;
    for (const other of this.remotes()) {
      if (other.name === name) continue;
      const clash = outcome.descriptor.components.find((component) => other.components.includes(component));
      if (clash) {
        const reason = `component "${clash}" is already provided by "${other.name}"`;
        return { status: 'failing', failure: 'bad-answer', reason };
      }
    }
    return outcome;
  }

  /**
   * Logs a remote that answered. Its configured slots that still cannot render are the slot check's to report
   * (slots/slot-check-reporter.ts): at start-up they stop the start, so saying here that they are left out was wrong.
   */
  private logAnswered(name: string, descriptor: RemoteDescriptor): void {
    this.options.logger.info(
      { remote: name, components: descriptor.components },
      `Remote "${name}" answered: ${descriptor.components.length} component(s).`,
    );
  }

  private changed(): void {
    this.currentVersion++;
    for (const listener of this.listeners) listener();
  }
}

function sameReleases(a: ReadonlyMap<string, RemoteRelease>, b: ReadonlyMap<string, RemoteRelease>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, release] of a) if (b.get(name)?.version !== release.version) return false;
  return true;
}
