import type { Express, Request } from 'express';
import type { Logger } from 'pino';
import type { RemoteDescriptor, RemoteRelease } from '../../shared';
import type { AppModule } from '../app-module';
import type { MetricsRegistry } from '../observability/metrics-registry';
import { addConfigReloadMetrics } from '../observability/operations-metrics';
import type { ResourcesModule } from '../resources/resources-module';
import { ContentSecurityPolicies } from '../security/content-security-policy';
import { LocationAllowLists } from '../slots/location-allow-lists';
import type { SlotProblem } from '../slots/slot-contract';
import type { SlotsModule } from '../slots/slots-module';
import { HttpDescriptorSource } from './http-descriptor-source';
import { createRemotesRouter } from './index';
import {
  ownLoopbackOrigins,
  reachedFromThisMachineOnly,
  ReleaseAddressGuard,
  type HostResolver,
} from './release-address-guard';
import { ReleaseTags } from './release-tags';
import { RemoteRegistry } from './remote-registry';
import { addRemoteDescriptorMetrics } from './remote-descriptor-metrics';
import { loadRemotesConfig, type LoadRemotesConfigOptions, type RemotesConfig } from './remotes-config';
import { reloadRemotesConfig } from './remotes-config-reload';
import { RemotesConfigError } from '../config/remotes-config-error';

export interface RemotesSettings {
  env: NodeJS.ProcessEnv;
  distDir: string;
  development: boolean;
  sourceMaps: boolean;
  secrets: string[];
  remoteDescriptorTimeoutMs: number;
  remoteRetryIntervalMs: number;
  /** PUBLIC_URL's origin: the product's own pages, answered with CORS by its remotes' files; undefined: unknown. */
  publicOrigin: string | undefined;
  /** How the hosts of releases' entries are resolved (release-address-guard.ts); default: the system's resolver. */
  resolveRemoteHost?: HostResolver | undefined;
}

export interface RemotesModuleParts {
  logger: Logger;
  metrics: MetricsRegistry | undefined;
  settings: RemotesSettings;
  /** Where REMOTES_CONFIG's slots are placed... */
  slots: SlotsModule;
  /** ...and its form slots. */
  resources: ResourcesModule;
}

/**
 * How a re-read of REMOTES_CONFIG is judged and taken: the modules above this one declare their part (the slot
 * check refuses a file that leaves a slot unable to render; placements join their own to the file's; releases import
 * its new entries).
 */
export interface ConfigReloadHooks {
  problems(config: RemotesConfig): SlotProblem[];
  inForce(file: RemotesConfig): RemotesConfig;
  onTaken(file: RemotesConfig): void;
  afterTaken(): Promise<void>;
  /** Before the check: the releases the file's changed entries would become, for the registry to consider. */
  consider(file: RemotesConfig): Promise<readonly RemoteRelease[]>;
}

/**
 * The remotes served now (declared in REMOTES_CONFIG or built here, their descriptors asked over HTTP and asked
 * again), where each may place slots (allow lists), the CSP that follows them, `GET /api/remotes` and the files of
 * the remotes built here. Pushes the slots and form slots REMOTES_CONFIG places into the slots and records whenever
 * the remotes served change.
 */
export class RemotesModule implements AppModule {
  /** REMOTES_CONFIG's entries, configuration: read wherever they are (the import of its entries as releases). */
  readonly descriptors: HttpDescriptorSource;
  /** Keeps the releases of a remote without `"releaseOrigins"` off internal addresses (release-address-guard.ts). */
  readonly addressGuard: ReleaseAddressGuard;
  /** Descriptors read for releases too (a publish, the checks of the releases in force): through the guard. */
  readonly releaseDescriptors: HttpDescriptorSource;
  readonly releaseTags: ReleaseTags;
  readonly registry: RemoteRegistry;
  /** Which remotes may fill each location (`allowRemotes`, and REMOTES_CONFIG's `"locations"`). */
  readonly allowLists: LocationAllowLists;
  /** The CSP of documents, which follows the remotes served (and an operator's previews). */
  readonly policies = new ContentSecurityPolicies();
  private readonly countReload: (outcome: 'taken' | 'refused') => void = () => undefined;
  private hooks: Partial<ConfigReloadHooks> = {};
  private chooser: (req: Request) => RemoteDescriptor[] | null = () => null;

  constructor(private readonly parts: RemotesModuleParts) {
    const { settings, logger, metrics, slots, resources } = parts;
    // Read before anything is opened: a bad configuration fails the start with nothing to clean up.
    const descriptorOptions = { timeoutMs: settings.remoteDescriptorTimeoutMs, passDevEvents: settings.development };
    this.descriptors = new HttpDescriptorSource(descriptorOptions);
    this.addressGuard = new ReleaseAddressGuard({
      config: () => this.registry.config,
      loopbackAllowed: reachedFromThisMachineOnly(settings.development, settings.env, settings.publicOrigin),
      ownOrigins: ownLoopbackOrigins(settings.env),
      resolve: settings.resolveRemoteHost,
    });
    this.releaseDescriptors = new HttpDescriptorSource({ ...descriptorOptions, guard: this.addressGuard });
    this.releaseTags = new ReleaseTags(settings.secrets);
    this.registry = new RemoteRegistry(loadRemotesConfig(this.configSource()), {
      logger,
      source: this.releaseDescriptors,
      releaseTags: this.releaseTags,
      retryIntervalMs: settings.remoteRetryIntervalMs,
      followDescriptorChanges: settings.development,
    });
    this.allowLists = new LocationAllowLists(() => this.registry.config);
    const place = () => {
      slots.registry.replaceConfigured(this.registry.slots());
      resources.resources.placeConfiguredForms(this.registry.formSlots());
    };
    place();
    this.registry.subscribe(place);
    if (metrics) {
      addRemoteDescriptorMetrics(metrics, this.registry);
      this.countReload = addConfigReloadMetrics(metrics);
    }
  }

  /** Where REMOTES_CONFIG is read from, and in which mode its entries are checked (at start and on reload alike). */
  configSource(): LoadRemotesConfigOptions {
    const { env, distDir, development } = this.parts.settings;
    return { env, distDir, production: !development };
  }

  /** Called after every change of the remotes served (an answer, a reload, a release activated). */
  onChange(listener: () => void): void {
    this.registry.subscribe(listener);
  }

  /** Declares a module's part in a reload (see ConfigReloadHooks); a later call adds to or replaces it. */
  judgeReloadsWith(hooks: Partial<ConfigReloadHooks>): void {
    this.hooks = { ...this.hooks, ...hooks };
  }

  /** The remotes of one request when they differ from everyone's (a canary, a preview): set by the releases. */
  chooseForRequestWith(chooser: (req: Request) => RemoteDescriptor[] | null): void {
    this.chooser = chooser;
  }

  forRequest(req: Request): RemoteDescriptor[] | null {
    return this.chooser(req);
  }

  /**
   * Re-reads REMOTES_CONFIG (on SIGHUP, or `npm run remotes:reload`); an invalid file, or one leaving a slot unable to
   * render, keeps the configuration in use and logs why (remotes-config-reload.ts).
   * @returns whether the new configuration was taken
   */
  async reloadConfig(): Promise<boolean> {
    const { hooks } = this;
    try {
      const taken = await reloadRemotesConfig({
        load: this.configSource(),
        remoteRegistry: this.registry,
        checkSlots: (config) => hooks.problems?.(config) ?? [],
        logger: this.parts.logger,
        ...(hooks.inForce ? { inForce: hooks.inForce } : {}),
        ...(hooks.onTaken ? { onTaken: hooks.onTaken } : {}),
        ...(hooks.consider
          ? { consider: async (file) => this.registry.consider((await hooks.consider?.(file)) ?? []) }
          : {}),
      });
      this.countReload(taken ? 'taken' : 'refused');
      if (taken) await hooks.afterTaken?.();
      return taken;
    } finally {
      // Taken, its releases are written by now and served from the database (this host served them meanwhile);
      // refused, they never were.
      this.registry.consider([]);
    }
  }

  mountFiles(app: Express): void {
    const { distDir, sourceMaps, development, publicOrigin } = this.parts.settings;
    app.use(
      createRemotesRouter({
        distDir,
        ...(publicOrigin === undefined ? {} : { publicOrigin }),
        registry: this.registry,
        sourceMaps,
        // Placeholders naming components, remotes and errors follow the server's mode, never the host's build mode.
        showSlotDetails: development,
        forRequest: (req) => this.forRequest(req),
      }),
    );
  }

  async start(): Promise<void> {
    // The releases in force are read by now (the releases module's load): a component the file gives one remote
    // while another's release in force provides it stops the start, as it stops a reload and as a clash within the
    // file stops a start. Refused rather than served one way: serving both let pages load either remote's code for
    // the name, and any rule choosing one would serve code the operator did not choose, unseen in a log line; hosts
    // already running keep serving (they refuse the same file on reload), so a refused start costs one host, not the
    // cluster, until the file or the release is changed.
    const clash = this.registry.componentClash(this.registry.config);
    if (clash !== null) throw new RemotesConfigError(startRefusedForClash(clash));
    // Bounded by the descriptor timeout: a remote that is down is logged and retried, never awaited further.
    await this.registry.refresh();
  }

  /** Warns of allow lists naming remotes no configuration declares (after the start's slot check). */
  warnOfUndeclaredRemotes(): void {
    const { remotes, pending, disabled } = this.registry.config;
    const declared = [...remotes, ...pending, ...disabled].map((remote) => remote.name);
    for (const warning of this.allowLists.undeclaredRemotes(declared)) this.parts.logger.warn(warning);
  }

  close(): void {
    this.registry.close();
  }
}

/** Why a start with a component clash (component-ownership.ts) is refused, and the two ways out. */
export function startRefusedForClash(clash: string): string {
  return (
    `${clash} The server does not start with this REMOTES_CONFIG, as a reload does not take it: change the file so ` +
    'the component has one remote, or take the release away (activate another, or deactivate it) from a host ' +
    'still running, then start again.'
  );
}
