import path from 'node:path';
import { namesInRule, type VisibilityRule } from '../../shared';
import { RemotesConfigError } from '../config/remotes-config-error';
import { loadRemotesConfig } from '../remotes/remotes-config';
import { parsePlacements, type DocumentSlot } from '../placements/placements-document';
import { PlacementsStore } from '../placements/placements-store';
import { isPublishedRule, publishedRules } from '../placements/rule-names-check';
import { ReleaseStore } from '../releases/release-store';
import type { StorageEngine } from '../storage/storage-engine';
import { frontendDirOf } from './frontend-dir';
import { nextCommand } from './next-command';
import { reachesNobodyWithout } from './tenant-canaries';

/** A slot of a placements document whose `visibleWhen` names the tenant. */
export interface SlotNamingTenant {
  remote: string;
  location: string;
  component: string;
}

/**
 * A canary that names the tenant: every user of it gets the canary. The removal ends it, or takes the tenant out of
 * its list (tenant-canaries.ts).
 */
export interface CanaryNamingTenant {
  remote: string;
  version: string;
  percent: number;
  /**
   * The canary gives no share and names no other tenant still there: it would reach nobody once the tenant is gone,
   * so the removal ends it; else the removal takes the tenant out of its list, and it goes on for the others.
   */
  endedWithTenant: boolean;
}

/**
 * What names a tenant outside its own data: the slots of the placements in force and of the saved draft whose rules
 * name it, which stay when it is removed (tenant:remove does not change the placements), and the canaries given to
 * it, which its removal ends (those that would reach nobody without it) or takes it out of. Read only.
 */
export interface TenantReferences {
  placementsInForce: readonly SlotNamingTenant[];
  /**
   * The saved draft's whose rules are written there (new, or changed from the placements in force): a publish checks
   * them as rules being written, and refuses a tenant there is not. A rule the draft keeps as in force is only a
   * warning then (server/placements/rule-names-check.ts), said with placementsInForce. Empty without a saved draft.
   */
  draft: readonly SlotNamingTenant[];
  canaries: readonly CanaryNamingTenant[];
  /** The rules of REMOTES_CONFIG naming it, as this process reads the file: kept, the command cannot change it. */
  configured: ConfiguredRulesNamingTenant;
}

/** The rules of REMOTES_CONFIG naming a tenant, as this process can read the file. */
export interface ConfiguredRulesNamingTenant {
  /** The file read (absolute), or null when REMOTES_CONFIG is not set here. */
  file: string | null;
  slots: readonly SlotNamingTenant[];
  /** Why the file could not be read here (its rules then unknown), or null. */
  problem: string | null;
}

/**
 * Said of rules placed by code, which no command can read: they are in the application's code, not in data. A
 * running host logs them once it sees the tenant gone, at its next poll (placements/rule-name-watch.ts).
 */
export const CODE_RULES_NOT_READ =
  'Rules placed by code (registerSlots) are not read by this command: each running host logs each one naming a ' +
  'tenant that does not exist within about a second; take the tenant out of them there.';

/** `env`: where REMOTES_CONFIG is read from (readConfiguredRules), this process's environment by default. */
export async function readTenantReferences(
  engine: StorageEngine,
  id: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TenantReferences> {
  const placements = new PlacementsStore(engine);
  const [latest, draft, rollouts, tenants] = await Promise.all([
    placements.latest(),
    placements.draft(),
    new ReleaseStore(engine).rollouts(),
    engine.db.selectFrom('tenants').select('id').execute(),
  ]);
  const tenantIds = tenants.map((tenant) => tenant.id);
  // Read as the server reads them (parsePlacements, publishedRules): what a host applies, and what a publish takes for
  // a rule kept or written. Compared as stored JSON, two spellings of one rule (an item given alone or in a list) told
  // a kept rule for one written, or missed it.
  const inForce = latest ? parsePlacements(latest.document) : null;
  const published = publishedRules(inForce);
  const namingIt = namingTenant(id);
  const placementsInForce = (inForce?.slots ?? []).filter(namingIt).map(named);
  const drafted = draft
    ? parsePlacements(draft.document)
        .slots.filter((slot) => namingIt(slot) && !isPublishedRule(published, slot))
        .map(named)
    : [];
  const canaries = rollouts.flatMap(({ remote, canary }) =>
    canary?.tenants.includes(id)
      ? [
          {
            remote,
            version: canary.version,
            percent: canary.percent,
            endedWithTenant: reachesNobodyWithout(canary, tenantIds, id),
          },
        ]
      : [],
  );
  return { placementsInForce, draft: drafted, canaries, configured: readConfiguredRules(env, id) };
}

export function namesTenant(references: TenantReferences): boolean {
  const { placementsInForce, draft, canaries, configured } = references;
  return placementsInForce.length + draft.length + canaries.length + configured.slots.length > 0;
}

/**
 * What tenant:remove says of them, one line each, before it asks and once it removed the tenant: what names the
 * tenant, and what becomes of it. Empty when nothing does.
 */
export function describeReferences(id: string, references: TenantReferences): string[] {
  const lines: string[] = [];
  const slots = (list: readonly SlotNamingTenant[]) =>
    list.map((slot) => `${slot.component} of ${slot.remote} at ${slot.location}`).join(', ');
  if (references.placementsInForce.length > 0) {
    lines.push(
      `Named by the rules of the placements in force (kept): ${slots(references.placementsInForce)}. A rule that ` +
        `needs "${id}" then holds for nobody. Publishing other changes goes on (the placements editor shows each such ` +
        `rule with a warning), but a rule changed while it still names "${id}" is refused: take "${id}" out of each.`,
    );
  }
  if (references.draft.length > 0) {
    lines.push(
      `Named by rules written in the saved placements draft (kept): ${slots(references.draft)}. It cannot be ` +
        `published until they no longer name "${id}".`,
    );
  }
  const { configured } = references;
  if (configured.slots.length > 0) {
    lines.push(
      `Named by rules of REMOTES_CONFIG ${configured.file} (kept: the command does not change the file): ` +
        `${slots(configured.slots)}. A rule that needs "${id}" then holds for nobody: take "${id}" out of each in ` +
        `the file, then ${nextCommand('remotes:reload')}.`,
    );
  }
  // Only the rules are kept naming the id: the canaries are ended or changed (below).
  if (lines.length > 0) {
    lines.push(`A tenant made later with the id "${id}" would be named by them again.`);
  }
  if (configured.problem !== null) {
    lines.push(
      `REMOTES_CONFIG ${configured.file} could not be read here, so its rules were not looked at: ${configured.problem}`,
    );
  }
  for (const canary of references.canaries) {
    if (canary.endedWithTenant) continue;
    const others = `its other tenants${canary.percent > 0 ? ` and ${canary.percent} % of the users` : ''}`;
    lines.push(
      `Named by the canary of ${canary.remote} ${canary.version}, which goes on for ${others}: "${id}" is taken out ` +
        `of its tenants with the tenant, so that a tenant made later with the id is not in it.`,
    );
  }
  for (const canary of references.canaries) {
    if (!canary.endedWithTenant) continue;
    lines.push(
      `Named by the canary of ${canary.remote} ${canary.version}, ended with the tenant: it gives no share of the ` +
        'users and names no other tenant still there, so it would reach nobody.',
    );
  }
  return lines;
}

/**
 * The slots of REMOTES_CONFIG whose rules name the tenant, the file read with this process's settings by the function
 * the hosts use (loadRemotesConfig, as remotes-reload-check.ts reads it). Read as in development, which differs from
 * production only in refusing fewer entries (plain http off this machine), none of them a rule: a file a host of
 * either mode takes is read. The command runs elsewhere than the hosts, so the file is named: a host given another
 * REMOTES_CONFIG reads its own.
 */
export function readConfiguredRules(
  env: NodeJS.ProcessEnv,
  id: string,
  cwd: string = process.cwd(),
): ConfiguredRulesNamingTenant {
  const configured = env.REMOTES_CONFIG?.trim();
  if (!configured) return { file: null, slots: [], problem: null };
  const file = path.resolve(cwd, configured);
  const distDir = frontendDirOf(env, cwd);
  try {
    const { slots } = loadRemotesConfig({ env, cwd, distDir, production: false });
    return { file, slots: slots.filter(namingTenant(id)).map(named), problem: null };
  } catch (error) {
    if (error instanceof RemotesConfigError) return { file, slots: [], problem: error.message };
    throw error;
  }
}

function named({ remote, location, slot }: Pick<DocumentSlot, 'remote' | 'location' | 'slot'>): SlotNamingTenant {
  return { remote, location: location.value, component: slot.component };
}

/** Whether a slot's rule names the tenant in a `tenants` list, at any depth of `$all`, `$any` and `$not`. */
function namingTenant(id: string): (placed: Pick<DocumentSlot, 'slot'>) => boolean {
  return ({ slot }) => {
    const rule: VisibilityRule | undefined = slot.placement.visibleWhen;
    return rule !== undefined && namesInRule(rule, 'tenants').some(({ names }) => names.includes(id));
  };
}
