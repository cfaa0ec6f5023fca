import path from 'node:path';
import type { JsonSchema, RemoteRelease } from '../../shared';
import { componentOwnershipProblem } from '../remotes/component-ownership';
import {
  loadRemotesConfig,
  type LoadRemotesConfigOptions,
  type PendingRemote,
  type RemotesConfig,
} from '../remotes/remotes-config';
import { placedConfiguredForm } from '../slots/configured-forms';
import { placedConfiguredSlots } from '../slots/configured-slots';
import { placementProblems } from '../slot-check/slot-check';
import { SlotContract, SlotContractError } from '../slots/slot-contract';
import { RemotesConfigError } from '../config/remotes-config-error';
import { remotesConfigNotReloaded } from '../remotes/remotes-config-reload';
import { frontendDirOf } from './frontend-dir';
import type { AnsweredRemote } from './remotes-reload-origins';

/** What `npm run remotes:reload` can tell of REMOTES_CONFIG before it asks the hosts to re-read it. */
export interface RemotesConfigCheck {
  /** The lines a host would log refusing the file, or null when the file passes here. */
  refusal: string | null;
  /** What was checked, with what this process's settings may read otherwise than a host's: printed either way. */
  checked: string;
  /** The file's remotes declared by entry alone (none when the file cannot be read): their origins may be asked. */
  pending: PendingRemote[];
  /** The remotes the file serves with the releases in force, and their components (none when it cannot be read). */
  served: Array<{ name: string; components: readonly string[] }>;
}

/**
 * Reads REMOTES_CONFIG with this process's settings, by the very function and options the hosts use
 * (loadRemotesConfig, as app.ts's remotesConfigSource gives it): whatever it refuses, a host with the same settings
 * would refuse with the same message, and keep its configuration. The command runs elsewhere than the hosts, though,
 * so what it checked is said: the file's absolute path (a relative REMOTES_CONFIG is read from the working folder),
 * the mode and the built-in remotes' folder.
 *
 * NODE_ENV not set here is read as production, the mode `npm start` and `npm run serve` give the hosts: it refuses
 * more (plain http off this machine), and a file refused only for that says so, with the way to check it for hosts
 * running in development.
 */
export function checkRemotesConfigHere(
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
  inForce?: readonly RemoteRelease[],
  answered: readonly AnsweredRemote[] = [],
): RemotesConfigCheck {
  const configured = env.REMOTES_CONFIG?.trim();
  const frontendDir = env.FRONTEND_DIR?.trim();
  const nodeEnv = env.NODE_ENV?.trim();
  const distDir = frontendDirOf(env, cwd);
  const options = { env, cwd, distDir, production: nodeEnv ? nodeEnv === 'production' : true };

  const what = configured
    ? path.isAbsolute(configured)
      ? `Checked REMOTES_CONFIG ${configured}`
      : `Checked REMOTES_CONFIG ${configured} as ${path.resolve(cwd, configured)} (a relative path: each host reads ` +
        'it from its own working folder)'
    : 'REMOTES_CONFIG is not set here: checked the built-in remotes alone (a host given one reads its own)';
  const mode = nodeEnv
    ? `as NODE_ENV=${nodeEnv}`
    : 'as NODE_ENV=production (not set here: the mode npm start and npm run serve give the hosts)';
  const builtIn = `${distDir}${frontendDir ? '' : ' (FRONTEND_DIR not set here)'}`;
  const releases =
    inForce === undefined
      ? ''
      : inForce.length === 0
        ? ', and no release in force in the database'
        : `, and the releases in force in the database (${inForce.map(({ remote, version }) => `${remote} ${version}`).join(', ')})`;
  const origins =
    answered.length === 0
      ? ''
      : `, and the remotes declared by entry alone as their origins answered here (${answered.map(({ name }) => name).join(', ')})`;
  const checked = `${what}, ${mode}, with the built-in remotes of ${builtIn}${releases}${origins}.`;

  const { problem, pending, served } = problemOf(options, inForce ?? [], answered);
  if (problem === null) return { refusal: null, checked, pending, served };
  const lines = [remotesConfigNotReloaded(problem)];
  if (!nodeEnv && problemOf({ ...options, production: false }, inForce ?? [], answered).problem === null) {
    lines.push(
      'A host running in production refuses it; one running with NODE_ENV=development would take it: if yours ' +
        'do, run the command with NODE_ENV=development.',
    );
  }
  return { refusal: lines.join('\n'), checked, pending, served };
}

/** A remote's contract as the check knows it; `release`: the version in force that gives it, if any. */
interface Known {
  name: string;
  components: readonly string[];
  formComponents: readonly string[];
  props: Readonly<Record<string, JsonSchema>>;
  release?: string;
}

function problemOf(
  options: LoadRemotesConfigOptions,
  inForce: readonly RemoteRelease[],
  answered: readonly AnsweredRemote[],
): { problem: string | null; pending: PendingRemote[]; served: Known[] } {
  let config: RemotesConfig;
  try {
    config = loadRemotesConfig(options);
  } catch (error) {
    if (error instanceof RemotesConfigError) return { problem: error.message, pending: [], served: [] };
    throw error;
  }
  const served = servedBy(config, inForce, answered);
  return {
    problem: componentClashOf(config, served) ?? slotProblemsOf(config, served),
    pending: config.pending,
    served,
  };
}

/**
 * What the hosts serve of `config` with the releases in force and what its remotes declared by entry answered:
 * only the releases of remotes the file declares are served, and an entry a host reads anew (`answered`) replaces
 * the remote's release in force once the file is taken.
 */
function servedBy(
  config: RemotesConfig,
  inForce: readonly RemoteRelease[],
  answered: readonly AnsweredRemote[],
): Known[] {
  const declared = new Set([...config.remotes, ...config.pending].map(({ name }) => name));
  const read = new Set(answered.map(({ name }) => name));
  const released = inForce.filter(({ remote }) => declared.has(remote) && !read.has(remote));
  const fromOrigins = new Set([...released.map(({ remote }) => remote), ...read]);
  return [
    ...config.remotes
      .filter(({ name }) => !fromOrigins.has(name))
      .map(({ name, components, formComponents }) => ({
        name,
        components,
        formComponents,
        props: config.schemas.get(name) ?? {},
      })),
    ...released.map(({ remote, components, formComponents, props, version }) => ({
      name: remote,
      components,
      formComponents,
      props,
      release: version,
    })),
    ...answered.filter(({ name }) => declared.has(name)),
  ];
}

/**
 * A component two remotes would provide once the file is taken, said as a host refuses it (RemoteRegistry's
 * componentClash): the file's and the built-in remotes' components are checked by loadRemotesConfig itself, but a
 * remote served by its release in force provides the release's components, read from its origin when it was
 * published, which the file does not show. Only the releases of remotes the file declares are served, so only they
 * count. A remote declared by entry alone counts with what its origin answered here, if it did (one claiming a
 * component another serves is left out before: a host takes the file without serving it, remotes-reload-origins.ts).
 */
function componentClashOf(config: RemotesConfig, served: readonly Known[]): string | null {
  return componentOwnershipProblem(
    served.map(({ name, components, release }) => ({ name, components, ...(release ? { release } : {}) })),
    config.sources.configFile,
  );
}

/**
 * The file's slots and form slots for remotes whose components and schemas are known here (the built-in ones, those
 * the file describes, those with a release in force, which every host serves with the release's stored descriptor,
 * and those declared by entry alone whose origin answered here), checked as a host checks them: a prop its
 * component's schema refuses, or a form slot's component that is no form component, makes every host refuse the
 * file, so it is said before they are asked. The slots of remotes not read here are the hosts' to check. So is the
 * order of the file's slots among code's, but two of the file's slots with one id, or a cycle among them, are
 * refused whatever code places there.
 */
function slotProblemsOf(config: RemotesConfig, served: readonly Known[]): string | null {
  const known = served.map(({ name, components, formComponents, props }) => ({
    name,
    components,
    formComponents,
    props,
  }));
  const names = new Set(known.map((remote) => remote.name));
  const placed = placedConfiguredSlots(config.slots)
    .flatMap(({ placed: slots }) => slots)
    .filter((slot) => slot.remote !== null && names.has(slot.remote));
  const forms = config.forms.map(placedConfiguredForm).filter((slot) => slot.remote !== null && names.has(slot.remote));
  const problems = [
    ...placementProblems(new Map(), config, (problem) => problem.kind !== 'missing-target'),
    ...new SlotContract().check([...placed, ...forms], { known, disabled: config.disabled, waiting: [] }),
  ].filter((problem) => problem.blocking);
  return problems.length === 0 ? null : new SlotContractError(problems).message;
}
