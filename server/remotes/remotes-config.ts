/*
 * Above 300 lines for one reason: reading the REMOTES_CONFIG file is one decision, every key's rule with an error
 * that names the file, the entry and the remote (the format: docs/operators/remotes-config.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { REMOTE_DESCRIPTOR_FILE, type JsonSchema, type RemoteDescriptor, type SlotLocation } from '../../shared';
import { checkAllowLists } from '../slots/location-allow-lists';
import { findBuiltRemotes } from './built-remotes';
import { parseConfiguredForms, type ConfiguredFormSlot } from '../slots/configured-forms';
import { parseConfiguredSlots, slotsOutsideRemote, type ConfiguredSlot } from '../slots/configured-slots';
import { parseReleaseOrigins, type ReleaseOrigin } from './release-origins';
import { checkComponentList, checkFormComponents, checkRemoteName } from './remote-names';
import { RemotesConfigError } from '../config/remotes-config-error';
import { parseOrigin } from '../security/parse-origin';
import { checkEntryUrl } from './remote-entry-url';
import { componentOwnershipProblem } from './component-ownership';

/**
 * A remote declared in REMOTES_CONFIG with only `name` and a manifest `entry`: what it provides is read from the
 * `slots-remote.json` its kit build wrote beside the manifest, when the server starts (http-descriptor-source.ts).
 */
export interface PendingRemote {
  name: string;
  entry: string;
  /** `<folder of the manifest>/slots-remote.json`. */
  descriptorUrl: string;
}

/** The remotes the host is told about, and who may load this server's remote files from another origin. */
export interface RemotesConfig {
  /** The remotes whose components are known now (built here, or listed in the file). */
  remotes: RemoteDescriptor[];
  /** The remotes whose components come from their descriptor, read over HTTP. */
  pending: PendingRemote[];
  /** Slots placed by the file, in file order; those of a pending remote are checked once its descriptor is read. */
  slots: ConfiguredSlot[];
  /** Form slots placed by the file (`"forms"`), in file order; checked against the resources by the slot check. */
  forms: ConfiguredFormSlot[];
  /** Remote name -> component -> props schema, for the remotes of `remotes` whose descriptor declares them. */
  schemas: ReadonlyMap<string, Readonly<Record<string, JsonSchema>>>;
  /** Remotes switched off with `"enabled": false`, with the components they would provide (to name them in errors). */
  disabled: ReadonlyArray<{ name: string; components: readonly string[] }>;
  /** Origins answered with `Access-Control-Allow-Origin` on `/remotes/*`; `'*'` allows any. */
  allowedOrigins: readonly string[] | '*';
  /**
   * Remote name -> the only origins its team may publish releases from: the origin of its absolute `entry` and its
   * `"releaseOrigins"` (release-origin-refusal.ts), never none (release-origins.ts refuses a list that would be
   * empty). A remote the file gives no `"releaseOrigins"` is not in the map.
   */
  releaseOrigins?: ReadonlyMap<string, readonly ReleaseOrigin[]>;
  /** Remotes whose team token may start and steer progressive rollouts (`"teamRollouts": true`); others need an operator. */
  teamRollouts?: ReadonlySet<string>;
  /** `"locations"`: location -> the remotes whose slots may fill it (replacing code's list for that location). */
  locationRemotes: ReadonlyMap<SlotLocation, readonly string[]>;
  /** Where the list came from, for the start-up log. */
  sources: { builtIn: string[]; configFile: string | null };
}

export interface LoadRemotesConfigOptions {
  env: NodeJS.ProcessEnv;
  distDir: string;
  /** Resolves a relative REMOTES_CONFIG path; the process's working directory by default. */
  cwd?: string;
  /**
   * Whether the server runs in production, where a plain-http entry must be on a loopback host. By default: as
   * config.ts reads it, when `env.NODE_ENV` is `production`.
   */
  production?: boolean;
}

const REMOTE_KEYS = new Set([
  'name',
  'entry',
  'components',
  'formComponents',
  'enabled',
  'slots',
  'forms',
  'releaseOrigins',
  'teamRollouts',
]);
const TOP_KEYS = new Set(['$schema', 'remotes', 'allowedOrigins', 'locations']);

/**
 * The remotes configuration, validated at start-up (fail fast, with messages that say what and where):
 * 1. built-in: every remote built into `<distDir>/remotes/<name>/` (from its own `slots-remote.json`), served by
 *    this server at `/remotes/<name>/mf-manifest.json`;
 * 2. `REMOTES_CONFIG` (env, path of a JSON file) overrides or adds remotes and places their components. The server
 *    re-reads it on SIGHUP (remotes-config-reload.ts); it never needs a host rebuild. The file's format, with an
 *    example: docs/operators/remotes-config.md.
 *
 * An override keeps the built remote's components unless it lists its own. An added remote built with the remote kit
 * needs only its manifest `entry`: its components are read from the descriptor beside it. One with a plain
 * `remoteEntry.js` (not built with the kit) lists its `components`. `"slots"` places components of that remote,
 * checked like code registrations; code registrations come first at a location, then the file's, in file order.
 * `"forms"` places that remote's form components among a resource form's fields (configured-forms.ts), checked
 * against the resources by the slot check.
 */
export function loadRemotesConfig(options: LoadRemotesConfigOptions): RemotesConfig {
  const builtIn = findBuiltRemotes(options.distDir);
  const byName = new Map(builtIn.map(({ descriptor }) => [descriptor.name, descriptor]));
  const schemas = new Map(builtIn.map(({ descriptor, props }) => [descriptor.name, props]));
  const disabled: Array<{ name: string; components: readonly string[] }> = [];
  const pending = new Map<string, PendingRemote>();
  const slots: ConfiguredSlot[] = [];
  const forms: ConfiguredFormSlot[] = [];
  const releaseOrigins = new Map<string, readonly ReleaseOrigin[]>();
  const teamRollouts = new Set<string>();
  let allowedOrigins: readonly string[] | '*' = [];
  let locationRemotes: ReadonlyMap<SlotLocation, readonly string[]> = new Map();
  let configFile: string | null = null;

  const configured = options.env.REMOTES_CONFIG?.trim();
  if (configured) {
    configFile = path.resolve(options.cwd ?? process.cwd(), configured);
    const production = options.production ?? options.env.NODE_ENV?.trim() === 'production';
    const file = readConfigFile(configFile, production);
    allowedOrigins = file.allowedOrigins;
    locationRemotes = file.locationRemotes;
    for (const override of file.remotes) {
      const where = `REMOTES_CONFIG ${configFile}, remote "${override.name}"`;
      const base = byName.get(override.name);
      if (override.releaseOrigins !== undefined) releaseOrigins.set(override.name, override.releaseOrigins);
      if (override.teamRollouts === true) teamRollouts.add(override.name);
      if (override.enabled === false) {
        byName.delete(override.name);
        schemas.delete(override.name);
        disabled.push({ name: override.name, components: override.components ?? base?.components ?? [] });
        continue;
      }
      const entry = override.entry ?? base?.entry;
      const components = override.components ?? base?.components;
      if (entry === undefined) {
        throw new RemotesConfigError(
          `${where}: it is not built into ${path.join(options.distDir, 'remotes')}, so it needs "entry" ` +
            '(the URL of its mf-manifest.json).',
        );
      }
      const remoteSlots = override.slots ?? [];
      if (components === undefined) {
        const descriptorUrl = descriptorUrlOf(entry);
        if (descriptorUrl === null) {
          // A folder's URL (a kit's dev server, a deploy folder) is most often a kit-built remote's, short of its file.
          const folder = /^https?:\/\/\S+\/$/.test(entry)
            ? ` (for a remote built with the kit: "${entry}mf-manifest.json")`
            : '';
          throw new RemotesConfigError(
            `${where}: "entry" ${JSON.stringify(entry)} is not the absolute URL of an mf-manifest.json${folder}, so ` +
              `the remote's ${REMOTE_DESCRIPTOR_FILE} cannot be read: give the URL of its mf-manifest.json, or list ` +
              'its "components" (a plain remoteEntry.js remote must).',
          );
        }
        byName.delete(override.name);
        schemas.delete(override.name);
        pending.set(override.name, { name: override.name, entry, descriptorUrl });
        slots.push(...remoteSlots);
        forms.push(...(override.forms ?? []));
        continue;
      }
      const formComponents =
        override.formComponents ?? base?.formComponents.filter((name) => components.includes(name)) ?? [];
      checkFormComponents(formComponents, components, where);
      const outside = slotsOutsideRemote(remoteSlots, components);
      if (outside.length > 0) throw new RemotesConfigError(`${where}: ${outside.join('; ')}.`);
      byName.set(override.name, { name: override.name, entry, components, formComponents });
      // Listed components keep the schemas the remote's build declared for them; a plain remote has none.
      const built = schemas.get(override.name) ?? {};
      schemas.set(
        override.name,
        Object.fromEntries(Object.entries(built).filter(([name]) => components.includes(name))),
      );
      slots.push(...remoteSlots);
      forms.push(...(override.forms ?? []));
    }
  }

  const remotes = [...byName.values()];
  checkComponentOwnership(remotes, configFile);
  return {
    remotes,
    pending: [...pending.values()],
    slots,
    forms,
    schemas,
    disabled,
    allowedOrigins,
    releaseOrigins,
    teamRollouts,
    locationRemotes,
    sources: { builtIn: builtIn.map(({ descriptor }) => descriptor.name), configFile },
  };
}

/**
 * Where a kit-built remote's descriptor file sits: beside its manifest. Null unless the entry is an absolute URL
 * of a .json file.
 */
export function descriptorUrlOf(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return null;
  }
  if (!url.pathname.endsWith('.json')) return null;
  return new URL(REMOTE_DESCRIPTOR_FILE, url).href;
}

interface RemoteOverride {
  name: string;
  entry?: string;
  /** With the origin of its absolute `entry` first. */
  releaseOrigins?: ReleaseOrigin[];
  teamRollouts?: boolean;
  components?: string[];
  formComponents?: string[];
  enabled?: boolean;
  slots?: ConfiguredSlot[];
  forms?: ConfiguredFormSlot[];
}

function readConfigFile(
  file: string,
  production: boolean,
): {
  remotes: RemoteOverride[];
  allowedOrigins: readonly string[] | '*';
  locationRemotes: ReadonlyMap<SlotLocation, readonly string[]>;
} {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new RemotesConfigError(`REMOTES_CONFIG points at ${file}, which cannot be read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RemotesConfigError(`REMOTES_CONFIG ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const where = `REMOTES_CONFIG ${file}`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new RemotesConfigError(`${where} must hold an object { "remotes": [...], "allowedOrigins": [...] }.`);
  }
  const object = raw as Record<string, unknown>;
  const unknownKeys = Object.keys(object).filter((key) => !TOP_KEYS.has(key));
  if (unknownKeys.length > 0) {
    throw new RemotesConfigError(
      `${where}: unknown key(s) ${unknownKeys.join(', ')}; allowed: ${[...TOP_KEYS].join(', ')}.`,
    );
  }
  const list = object.remotes ?? [];
  if (!Array.isArray(list)) throw new RemotesConfigError(`${where}: "remotes" must be a list.`);
  const seen = new Set<string>();
  const remotes = list.map((item, index) => {
    const override = parseOverride(item, `${where}, remotes[${index}]`, production);
    if (seen.has(override.name)) throw new RemotesConfigError(`${where}: remote "${override.name}" is listed twice.`);
    seen.add(override.name);
    return override;
  });
  const locationRemotes =
    object.locations === undefined
      ? new Map<SlotLocation, readonly string[]>()
      : checkAllowLists(object.locations, `${where}: "locations"`, (message) => new RemotesConfigError(message));
  return { remotes, allowedOrigins: parseAllowedOrigins(object.allowedOrigins, where), locationRemotes };
}

function parseOverride(item: unknown, where: string, production: boolean): RemoteOverride {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new RemotesConfigError(`${where} must be an object with at least "name".`);
  }
  const object = item as Record<string, unknown>;
  const unknownKeys = Object.keys(object).filter((key) => !REMOTE_KEYS.has(key));
  if (unknownKeys.length > 0) {
    throw new RemotesConfigError(
      `${where}: unknown key(s) ${unknownKeys.join(', ')}; allowed: ${[...REMOTE_KEYS].join(', ')}.`,
    );
  }
  const override: RemoteOverride = { name: checkRemoteName(object.name, where) };
  const named = `${where} ("${override.name}")`;
  if (object.entry !== undefined) override.entry = checkEntry(object.entry, named, production);
  if (object.components !== undefined) override.components = checkComponentList(object.components, 'components', named);
  if (object.formComponents !== undefined) {
    override.formComponents = checkComponentList(object.formComponents, 'formComponents', named);
  }
  if (object.enabled !== undefined) {
    if (typeof object.enabled !== 'boolean') throw new RemotesConfigError(`${named}: "enabled" must be true or false.`);
    override.enabled = object.enabled;
  }
  if (object.slots !== undefined) override.slots = parseConfiguredSlots(object.slots, override.name, named);
  if (object.forms !== undefined) override.forms = parseConfiguredForms(object.forms, override.name, named);
  if (object.teamRollouts !== undefined) {
    if (typeof object.teamRollouts !== 'boolean') {
      throw new RemotesConfigError(`${named}: "teamRollouts" must be true or false.`);
    }
    override.teamRollouts = object.teamRollouts;
  }
  if (object.releaseOrigins !== undefined) {
    // The entry as written, checked above: messages show its origin as the operator spelled it.
    const entry = typeof object.entry === 'string' ? object.entry : undefined;
    override.releaseOrigins = parseReleaseOrigins(object.releaseOrigins, entry, named, production);
  }
  return override;
}

/**
 * An absolute http(s) URL, or a path on this server (`/...`); it should name the remote's `mf-manifest.json`.
 * Absolute ones are held to what a browser may be given (checkEntryUrl).
 */
function checkEntry(value: unknown, where: string, production: boolean): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RemotesConfigError(`${where}: "entry" must be the URL of the remote's mf-manifest.json.`);
  }
  if (value.startsWith('/') && !value.startsWith('//')) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RemotesConfigError(
      `${where}: "entry" ${JSON.stringify(value)} is neither an absolute URL nor a path starting with "/".`,
    );
  }
  const problem = checkEntryUrl(url, production);
  if (problem !== null) throw new RemotesConfigError(`${where}: ${problem}`);
  return url.href;
}

function parseAllowedOrigins(value: unknown, where: string): readonly string[] | '*' {
  if (value === undefined) return [];
  if (value === '*') return '*';
  if (!Array.isArray(value)) {
    throw new RemotesConfigError(
      `${where}: "allowedOrigins" must be "*" or a list of origins like "https://admin.example.com".`,
    );
  }
  const origins = (value as unknown[]).map((origin) => {
    if (origin === '*') return '*';
    if (typeof origin === 'string' && hasWildcardHost(origin)) {
      throw new RemotesConfigError(
        `${where}: "allowedOrigins" holds ${JSON.stringify(origin)}, a wildcard pattern; list each origin ` +
          '(scheme://host[:port]), or give "*" alone to allow any.',
      );
    }
    const parsed = parseOrigin(origin);
    if (parsed === null) {
      throw new RemotesConfigError(
        `${where}: "allowedOrigins" holds ${JSON.stringify(origin)}, which is not an origin (scheme://host[:port], no path).`,
      );
    }
    return parsed;
  });
  return origins.includes('*') ? '*' : origins;
}

/** Whether `value` is a URL whose host holds a `*` (a pattern such as `https://*.example.com`). */
function hasWildcardHost(value: string): boolean {
  try {
    return new URL(value).hostname.includes('*');
  } catch {
    return false;
  }
}

/** One component name, one provider: the host would otherwise pick one of two remotes arbitrarily. */
function checkComponentOwnership(remotes: readonly RemoteDescriptor[], configFile: string | null): void {
  const problem = componentOwnershipProblem(remotes, configFile);
  if (problem !== null) throw new RemotesConfigError(problem);
}
