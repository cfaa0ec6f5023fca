import { randomBytes } from 'node:crypto';
import { getFreePort, releasePort } from '../system/free-port';
import { podman, type PodmanRun } from './podman';

export interface ContainerOptions {
  image: string;
  /** A name unique to the run is made from this prefix. */
  namePrefix?: string;
  env?: Readonly<Record<string, string>>;
  /** Container ports published on 127.0.0.1, each on a free port of this machine (see `hostPort`). */
  publish?: readonly number[];
  /** `--read-only`: podman then mounts tmpfs on /tmp, /var/tmp and /run. */
  readOnly?: boolean;
  /** `--volume` values, e.g. `slots-data-123:/data`. */
  volumes?: readonly string[];
  /** Further `podman run` options (a network, `--user`, `--tmpfs`). */
  runOptions?: readonly string[];
  /** The command, when not the image's own. */
  command?: readonly string[];
}

export interface Container {
  readonly id: string;
  readonly name: string;
  /** The port of this machine a published container port answers on. */
  hostPort(containerPort: number): number;
  /** `podman exec`; resolves with the run, whatever its exit code. */
  exec(args: readonly string[], options?: { input?: string; user?: string }): Promise<PodmanRun>;
  logs(): Promise<string>;
  /** `podman inspect` of one Go template, e.g. `{{.State.Running}}`. */
  inspect(format: string): Promise<string>;
  /** Sends a signal to the container's main process (`podman kill --signal`). */
  signal(signal: NodeJS.Signals): Promise<void>;
  /** Resolves with its exit code once it stopped, whoever stopped it (`podman wait`). */
  waitForExit(): Promise<number>;
  /** Removes it, running or not (`podman rm --force`), and gives its published ports back; safe to call twice. */
  remove(): Promise<void>;
}

/** `podman run --detach`; the caller removes the container (afterAll), with its output read first if it failed. */
export async function startContainer(options: ContainerOptions): Promise<Container> {
  const name = `${options.namePrefix ?? 'slots-test'}-${randomBytes(4).toString('hex')}`;
  const ports = new Map<number, number>();
  for (const port of options.publish ?? []) ports.set(port, await getFreePort());
  const args = [
    'run',
    '--detach',
    '--name',
    name,
    ...(options.readOnly ? ['--read-only'] : []),
    ...[...ports].flatMap(([container, host]) => ['--publish', `127.0.0.1:${host}:${container}`]),
    ...Object.entries(options.env ?? {}).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    ...(options.volumes ?? []).flatMap((volume) => ['--volume', volume]),
    ...(options.runOptions ?? []),
    options.image,
    ...(options.command ?? []),
  ];
  const id = (await podman(args)).stdout.trim();
  return {
    id,
    name,
    hostPort(containerPort) {
      const port = ports.get(containerPort);
      if (port === undefined) throw new Error(`Port ${containerPort} of ${name} is not published.`);
      return port;
    },
    exec: (execArgs, execOptions = {}) =>
      podman(
        [
          'exec',
          ...(execOptions.input === undefined ? [] : ['--interactive']),
          ...(execOptions.user ? ['--user', execOptions.user] : []),
          name,
          ...execArgs,
        ],
        { allowFailure: true, ...(execOptions.input === undefined ? {} : { input: execOptions.input }) },
      ),
    logs: async () => {
      const run = await podman(['logs', name], { allowFailure: true });
      return `${run.stdout}${run.stderr}`;
    },
    inspect: async (format) => (await podman(['inspect', '--format', format, name])).stdout.trim(),
    signal: async (signal) => {
      await podman(['kill', '--signal', signal, name]);
    },
    waitForExit: async () => Number((await podman(['wait', name])).stdout.trim()),
    remove: async () => {
      await podman(['rm', '--force', '--time', '0', name], { allowFailure: true });
      for (const port of ports.values()) releasePort(port);
    },
  };
}
