/**
 * Before `slots-remote release` sends anything: the build deployed at the entry against the project's `remote.ts`. A
 * `dist/` built before a component was added (deployed without `npm run build` again, or from an older checkout) is
 * a whole build of its own: the server accepts it, and the version is then taken for good by a release that lacks
 * the component, whose every placement is refused later. An entry that is the kit's development server (`npm run dev`)
 * is no build at all: its files change at every save and go when it stops, and a product running in production does
 * not tell it from an origin (it passes no rebuild announcement on, so it cannot see one), so it would take it as a
 * release. Only the team's origin is asked, without the token. An origin whose TLS certificate Node refuses (an
 * authority it does not know, a name it does not hold, expired) is said so here, with the remedy: the build there
 * cannot be compared, and the product's servers and the staff's browsers check the same certificate.
 */
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import {
  certificateProblemOf,
  originCertificateProblemLines,
  readPresentedCertificate,
  type CertificateProblem,
  type PresentedCertificate,
} from './certificate-problem';

/** As long as the server waits for the same file when it is published (the descriptor's timeout). */
const DEPLOYED_DESCRIPTOR_TIMEOUT_MS = 3_000;

/** What the deployed build lacks of the declaration: the components and where its descriptor was read. */
export interface UndeployedComponents {
  /** The deployed `slots-remote.json`. */
  url: string;
  /** What `remote.ts` declares and the deployed build does not provide, in `remote.ts`'s order. */
  missing: string[];
  /** What the deployed build provides. */
  deployed: string[];
}

/**
 * Why the build at the entry must not be published: a development server, a build lacking components, or an origin
 * whose certificate Node refused (`certificate`: what it presented, when it could be read).
 */
export type DeployedBuildProblem =
  | { kind: 'development-server'; url: string }
  | ({ kind: 'undeployed-components' } & UndeployedComponents)
  | {
      kind: 'origin-certificate';
      url: string;
      entry: string;
      problem: CertificateProblem;
      certificate: PresentedCertificate | null;
    };

/**
 * What is wrong with the build at `entry`, from its `slots-remote.json` beside the manifest: the kit's development
 * server (its descriptor announces rebuilds: `devEvents`), components `declared` it does not provide, or a TLS
 * certificate of the origin Node refuses; null when none of these, or when it cannot be read from here for another
 * reason (then the server, which reads the same file, says what is wrong).
 */
export async function deployedBuildProblem(
  entry: string,
  declared: readonly string[],
  timeoutMs = DEPLOYED_DESCRIPTOR_TIMEOUT_MS,
): Promise<DeployedBuildProblem | null> {
  if (!URL.canParse(entry)) return null;
  const url = new URL(REMOTE_DESCRIPTOR_FILE, entry).href;
  let body: unknown;
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    body = await response.json();
  } catch (error) {
    const problem = certificateProblemOf(error);
    if (problem === null) return null;
    const certificate = await readPresentedCertificate(url, timeoutMs);
    return { kind: 'origin-certificate', url, entry, problem, certificate };
  }
  const descriptor = (body ?? {}) as { components?: unknown; devEvents?: unknown };
  if (descriptor.devEvents !== undefined) return { kind: 'development-server', url };
  const components = descriptor.components;
  if (!Array.isArray(components) || !components.every((name) => typeof name === 'string')) return null;
  const deployed = components as string[];
  const missing = declared.filter((name) => !deployed.includes(name));
  return missing.length === 0 ? null : { kind: 'undeployed-components', url, missing, deployed };
}

/**
 * The refusal of a release whose entry is a development server, whose deployed build lacks components, or whose
 * origin's certificate Node refused (`env`: whether NODE_EXTRA_CA_CERTS is given already).
 */
export function deployedBuildProblemMessage(
  problem: DeployedBuildProblem,
  server: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (problem.kind === 'origin-certificate') {
    return originCertificateProblemLines(problem.entry, server, problem.problem, problem.certificate, env);
  }
  if (problem.kind === 'development-server') {
    const folder = new URL('.', problem.url).href;
    return [
      `The entry is a development server (slots-remote dev, at ${folder}): its files change at every save and are ` +
        'gone once it stops, so it is never made a release.',
      `Nothing was sent to ${server}: build (npm run build), deploy dist/ to the version's own folder on your ` +
        "origin, and publish that folder's mf-manifest.json.",
    ];
  }
  return undeployedComponentsMessage(problem, server);
}

/** The refusal of a release whose deployed build lacks components `remote.ts` declares. */
function undeployedComponentsMessage(found: UndeployedComponents, server: string): string[] {
  const folder = new URL('.', found.url).href;
  const names = found.missing.map((name) => `"${name}"`).join(', ');
  return [
    `The build deployed at ${folder} lacks ${names}, which remote.ts declares: its ${REMOTE_DESCRIPTOR_FILE} lists ` +
      `${found.deployed.join(', ') || 'no component'}. It was built before ${found.missing.length === 1 ? 'that component was' : 'those components were'} ` +
      'added, or from other sources.',
    `Nothing was sent to ${server}: build again (npm run build), deploy the new dist/ to ${folder}, then publish ` +
      'again.',
  ];
}
