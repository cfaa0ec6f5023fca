import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../temp-dir';
import { ensureNodeBaseImage, type BaseImageOptions } from './node-base-image';
import { podman, type PodmanRun } from './podman';

/**
 * `podman kube play` (podman 4.3) on this machine. Every pod it makes has an infra container holding the pod's
 * namespaces, run from podman's pause image, which podman builds from `catatonit`: Debian installs that only as a
 * recommendation of podman, and `.ci/run` installs podman without recommendations, so podman fails with `building
 * local pause image: finding pause binary: exec: "catatonit": executable file not found in $PATH`. kube play takes no
 * infra image option: the one podman uses comes from containers.conf (`infra_image`), so the plays here are given a
 * containers.conf of their own naming this image, a shell that waits until it is stopped.
 */
export const POD_INFRA_IMAGE = 'localhost/slots-standin/pod-infra:1';

/** Label holding the hash of the Containerfile the infra image was built from (rebuilt when it changes). */
const SPEC_LABEL = 'org.slots-platform.standin-spec';

/** Builds the infra image on the stand-in base unless the store holds one of this very Containerfile. */
export async function ensurePodInfraImage(options: BaseImageOptions = {}): Promise<string> {
  const base = await ensureNodeBaseImage(options);
  const containerfile = [
    `FROM ${base}`,
    // Exits at once on the stop signal (a shell waiting on `sleep` would otherwise wait out podman's stop timeout).
    `ENTRYPOINT ["/bin/sh", "-c", "trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done"]`,
    '',
  ].join('\n');
  const hash = createHash('sha256').update(containerfile).digest('hex');
  const existing = await podman(
    ['image', 'inspect', '--format', `{{ index .Labels "${SPEC_LABEL}" }}`, POD_INFRA_IMAGE],
    { allowFailure: true },
  );
  if (existing.code === 0 && existing.stdout.trim() === hash) return POD_INFRA_IMAGE;
  const context = makeTempDir('slots-pod-infra-context-');
  try {
    fs.writeFileSync(path.join(context.path, 'Containerfile'), `${containerfile}LABEL ${SPEC_LABEL}=${hash}\n`);
    options.log?.(`podman build ${POD_INFRA_IMAGE}`);
    await podman(['build', '-t', POD_INFRA_IMAGE, '-f', 'Containerfile', context.path]);
    return POD_INFRA_IMAGE;
  } finally {
    context.remove();
  }
}

/**
 * The machine's containers.conf with `infra_image` set in its `[engine]` table. podman reads the file
 * CONTAINERS_CONF names instead of every other (/usr/share/containers/, /etc/containers/ and its .d folder), so the
 * machine's settings are carried over: `.ci/run` writes cgroupfs and no default ulimits into /etc's, without which
 * runc fails here.
 */
export function containersConfWithInfraImage(machineConf: string, image: string): string {
  const setting = `infra_image = ${JSON.stringify(image)}`;
  const lines = machineConf.split('\n').filter((line) => !/^\s*infra_image\s*=/.test(line));
  const engine = lines.findIndex((line) => /^\s*\[engine\]\s*(#.*)?$/.test(line));
  if (engine === -1) return `${lines.join('\n').trimEnd()}\n\n[engine]\n${setting}\n`;
  lines.splice(engine + 1, 0, setting);
  return lines.join('\n');
}

/**
 * The machine's settings: the file CONTAINERS_CONF already names, else /etc's (what this machine changed: `.ci/run`
 * writes it), else /usr/share's (the package's defaults).
 */
function machineContainersConf(): string {
  const candidates = [
    process.env.CONTAINERS_CONF,
    '/etc/containers/containers.conf',
    '/usr/share/containers/containers.conf',
  ];
  const found = candidates.find((file): file is string => !!file && fs.existsSync(file));
  return found ? fs.readFileSync(found, 'utf8') : '';
}

export interface KubePlayOptions extends BaseImageOptions {
  /** `--network`: a network of the test's own (kube play otherwise makes and keeps `podman-default-kube-network`). */
  network: string;
}

/**
 * `podman kube play --network <network> -` of `yaml`, its pods' infra containers run from POD_INFRA_IMAGE. Resolves
 * with the run whatever its exit code: a play that failed half-way leaves pods behind, which the caller removes by
 * name either way.
 */
export async function kubePlay(yaml: string, options: KubePlayOptions): Promise<PodmanRun> {
  const infraImage = await ensurePodInfraImage(options);
  const folder = makeTempDir('slots-kube-play-');
  try {
    const conf = path.join(folder.path, 'containers.conf');
    fs.writeFileSync(conf, containersConfWithInfraImage(machineContainersConf(), infraImage));
    return await podman(['kube', 'play', '--network', options.network, '-'], {
      input: yaml,
      env: { CONTAINERS_CONF: conf },
      allowFailure: true,
    });
  } finally {
    folder.remove();
  }
}
