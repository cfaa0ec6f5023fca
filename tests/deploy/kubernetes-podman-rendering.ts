/**
 * deploy/kubernetes/ rendered for `podman kube play` (podman 4.3), as the runtime test plays it: the shipped files
 * stay as an operator applies them, and each difference of podman's from a cluster is made up for here, named where
 * it is done. What a cluster does that podman does not (the Service's load balancing, the autoscaler, the disruption
 * budget, the probes) the test does or checks itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { REPO_ROOT } from '../../testing/system/repo-root';

export const KUBERNETES_DIR = path.join(REPO_ROOT, 'deploy', 'kubernetes');

export interface KubeDocument {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: any;
}

/** Every document of the files kustomization.yaml lists, in its order (what `kubectl apply -k` applies). */
export function readKubernetesManifests(dir = KUBERNETES_DIR): KubeDocument[] {
  const kustomization = parseAllDocuments(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'))[0]!.toJS();
  return (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'))
      .filter((document) => document.contents !== null)
      .map((document) => {
        if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map(String).join('; ')}`);
        return document.toJS() as KubeDocument;
      }),
  );
}

export interface PodmanRenderingOptions {
  /** Appended to every name the play makes: pods, secrets and volumes are global in podman's store. */
  suffix: string;
  /** The image to run instead of the Deployment's placeholder. */
  image: string;
  /** A value for each key of the example Secret, which the played Deployment reads instead of its placeholders. */
  secretValues: Readonly<Record<string, string>>;
  /** One loopback port of this machine per host replica (the autoscaler's minReplicas of them). */
  hostPorts: readonly number[];
}

export interface PodmanRendering {
  /** What `podman kube play` is given: the ConfigMap and one single-pod Deployment per replica. */
  yaml: string;
  /** The podman secret to create before the play, under `secretName`, in the form podman 4.3 reads (below). */
  secretName: string;
  secretJson: string;
  /** Per replica: its pod's name, its container's, and the port of this machine it answers on. */
  replicas: { pod: string; container: string; hostPort: number }[];
  /** Volumes the play makes that outlive its pods (the ConfigMap's), to remove afterwards. */
  volumes: string[];
  /** Kinds left to the test, with why. */
  notPlayed: Record<string, string>;
}

/** The kinds in deploy/kubernetes/ that podman does not run, and what stands for each in the test. */
const NOT_PLAYED: Readonly<Record<string, string>> = {
  Service: 'the test sends to each pod itself, on the port the pod publishes',
  Ingress: 'no ingress controller here: the test is the client of each pod, saying it came through HTTPS',
  HorizontalPodAutoscaler: 'its minReplicas is the number of single-pod Deployments played',
  PodDisruptionBudget: 'no node is drained here',
  Secret: 'created as a podman secret in the form podman reads (secretJson)',
};

export function renderForPodman(manifests: readonly KubeDocument[], options: PodmanRenderingOptions): PodmanRendering {
  const only = (kind: string): KubeDocument => {
    const found = manifests.filter((manifest) => manifest.kind === kind);
    if (found.length !== 1) throw new Error(`Expected one ${kind} in deploy/kubernetes/, found ${found.length}.`);
    return structuredClone(found[0]!);
  };
  const unknown = manifests.filter(
    ({ kind }) => !(kind in NOT_PLAYED) && kind !== 'Deployment' && kind !== 'ConfigMap',
  );
  if (unknown.length > 0) {
    throw new Error(`No rendering for ${unknown.map(({ kind }) => kind).join(', ')}: say how the test plays it.`);
  }
  const renamed = (name: string): string => `${name}-${options.suffix}`;

  // podman 4.3 stores a played `kind: Secret` as YAML, yet reads a secretKeyRef's value as JSON of base64 values
  // ("secret slots-platform is not valid JSON"), so the Secret is made in that form instead of being played.
  const secret = only('Secret');
  const secretKeys = Object.keys({ ...secret.data, ...secret.stringData }).sort();
  const givenKeys = Object.keys(options.secretValues).sort();
  if (JSON.stringify(secretKeys) !== JSON.stringify(givenKeys)) {
    throw new Error(`The Secret holds ${secretKeys.join(', ')}; the test gives ${givenKeys.join(', ')}.`);
  }
  const secretName = renamed(secret.metadata.name);
  const secretJson = JSON.stringify(
    Object.fromEntries(
      Object.entries(options.secretValues).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
    ),
  );

  // A ConfigMap becomes a podman volume of its name, kept after the pods: named for this run, removed after it.
  const configMap = only('ConfigMap');
  const shippedConfigMapName = configMap.metadata.name;
  const configMapName = renamed(shippedConfigMapName);
  configMap.metadata.name = configMapName;

  const deployment = only('Deployment');
  const replicaCount = only('HorizontalPodAutoscaler').spec.minReplicas as number;
  if (options.hostPorts.length !== replicaCount) {
    throw new Error(`The autoscaler's minReplicas is ${replicaCount}: give as many host ports.`);
  }
  const replicas: PodmanRendering['replicas'] = [];
  // One Deployment of one pod per replica: podman publishes a containerPort without a hostPort on the same port of
  // the machine (3000 on every address: the second replica fails to bind it), and a Deployment's pods share one
  // template; and an emptyDir is a podman volume named after it, which the pods of one Deployment would share.
  const deployments = options.hostPorts.map((hostPort, index) => {
    const copy = structuredClone(deployment);
    copy.metadata.name = `${deployment.metadata.name}-${options.suffix}-${index}`;
    copy.spec.replicas = 1;
    const pod = copy.spec.template.spec;
    for (const volume of pod.volumes ?? []) {
      if (!volume.configMap) continue;
      if (volume.configMap.name !== shippedConfigMapName) {
        throw new Error(`Volume ${volume.name} mounts a ConfigMap the folder does not hold: ${volume.configMap.name}.`);
      }
      volume.configMap.name = configMapName;
    }
    const emptyDirs = new Map<string, string>(
      (pod.volumes ?? [])
        .filter((volume: { emptyDir?: unknown }) => volume.emptyDir !== undefined)
        .map((volume: { name: string }) => [volume.name, `${volume.name}-${options.suffix}-${index}`]),
    );
    for (const volume of pod.volumes ?? []) volume.name = emptyDirs.get(volume.name) ?? volume.name;
    if (pod.containers.length !== 1) throw new Error('The rendering expects the Deployment to run one container.');
    const container = pod.containers[0];
    container.image = options.image;
    for (const mount of container.volumeMounts ?? []) mount.name = emptyDirs.get(mount.name) ?? mount.name;
    for (const variable of container.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef;
      if (ref && ref.name === secret.metadata.name) ref.name = secretName;
      else if (ref) throw new Error(`${variable.name} reads a Secret the folder does not hold: ${ref.name}.`);
    }
    for (const port of container.ports ?? []) {
      if (port.name === 'http') Object.assign(port, { hostPort, hostIP: '127.0.0.1' });
    }
    // podman turns a liveness probe into a health check it cannot run here (`curl -f http://localhost:0/healthz`:
    // a named port read as 0, no curl in the image, no systemd to run it) and ignores the others. The test asks
    // /readyz and /healthz itself.
    delete container.livenessProbe;
    delete container.readinessProbe;
    delete container.startupProbe;
    const podName = `${copy.metadata.name}-pod-0`;
    replicas.push({ pod: podName, container: `${podName}-${container.name}`, hostPort });
    return copy;
  });

  return {
    yaml: [configMap, ...deployments].map((document) => stringify(document)).join('---\n'),
    secretName,
    secretJson,
    replicas,
    volumes: [configMapName],
    notPlayed: { ...NOT_PLAYED },
  };
}
