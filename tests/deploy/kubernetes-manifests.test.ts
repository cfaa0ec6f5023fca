/**
 * deploy/kubernetes/: every manifest validated against the Kubernetes API's own schemas (kubernetes-models, generated
 * from the OpenAPI definitions of Kubernetes 1.x: types, required fields, enums), then what issue 49 asks of them and
 * what holds them together (selectors, ports, the Secret's keys, the ConfigMap's file, the shutdown budget), and that
 * the server itself accepts the environment the Deployment gives it. No cluster needed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { readConfig } from '../../server/env-config';
import { loadRemotesConfig } from '../../server/remotes/remotes-config';
import { REPO_ROOT } from '../../testing/system/repo-root';
import {
  directiveArgs,
  nginxSeconds,
  readNginxExample,
  serverListeningOn,
  type NginxDirective,
} from './kubernetes-nginx-example';
import { readKubernetesManifests, renderForPodman } from './kubernetes-podman-rendering';

const DIR = path.join(REPO_ROOT, 'deploy', 'kubernetes');

/** The kinds the folder may hold, each with the model generated from the API schema of its group and version. */
const MODELS: Readonly<Record<string, new (data: never) => { validate(): void }>> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
};

interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  body: any;
}

const manifestFiles = fs
  .readdirSync(DIR)
  .filter((file) => /\.ya?ml$/.test(file) && file !== 'kustomization.yaml')
  .sort();

const manifests: Manifest[] = manifestFiles.flatMap((file) =>
  parseAllDocuments(fs.readFileSync(path.join(DIR, file), 'utf8'))
    .filter((document) => document.contents !== null)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map(String).join('; ')}`);
      const body = document.toJS() as { apiVersion: string; kind: string };
      return { file, apiVersion: body.apiVersion, kind: body.kind, body };
    }),
);

function one(kind: string): Manifest['body'] {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  expect(found).toHaveLength(1);
  return found[0]!.body;
}

function validate(apiVersion: string, kind: string, body: unknown): void {
  const Model = MODELS[`${apiVersion}/${kind}`];
  if (!Model) throw new Error(`No schema model for ${apiVersion} ${kind}: add it to MODELS`);
  new Model(body as never).validate();
}

describe('deploy/kubernetes/ manifests', () => {
  it('holds the six kinds issue 49 names, one file each, and the Ingresses for ingress-nginx', () => {
    expect(manifests.map(({ kind }) => kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Ingress',
      'Ingress',
      'PodDisruptionBudget',
      'Secret',
      'Service',
    ]);
  });

  it.each(manifestFiles)('%s is valid against the Kubernetes API schema of its kind', (file) => {
    for (const manifest of manifests.filter((one) => one.file === file)) {
      expect(() => validate(manifest.apiVersion, manifest.kind, manifest.body)).not.toThrow();
    }
  });

  it('the schema validation is real: a wrong type or a missing required field is refused', () => {
    const deployment = structuredClone(one('Deployment'));
    expect(() =>
      validate('apps/v1', 'Deployment', { ...deployment, spec: { ...deployment.spec, replicas: 'two' } }),
    ).toThrow(/replicas must be integer/);
    const nameless = structuredClone(deployment);
    delete nameless.spec.template.spec.containers[0].name;
    expect(() => validate('apps/v1', 'Deployment', nameless)).toThrow(/name/);
    const hpa = structuredClone(one('HorizontalPodAutoscaler'));
    delete hpa.spec.scaleTargetRef;
    expect(() => validate('autoscaling/v2', 'HorizontalPodAutoscaler', hpa)).toThrow(/scaleTargetRef/);
  });

  it('kustomization.yaml lists every manifest', () => {
    const kustomization = parseAllDocuments(fs.readFileSync(path.join(DIR, 'kustomization.yaml'), 'utf8'))[0]!.toJS();
    expect([...kustomization.resources].sort()).toEqual(manifestFiles);
  });

  describe('the Deployment', () => {
    const deployment = one('Deployment');
    const pod = deployment.spec.template.spec;
    const container: IContainer = pod.containers[0];
    const podLabels = deployment.spec.template.metadata.labels;

    it('runs two hosts or more, replacing them one at a time with none missing', () => {
      // The autoscaler sets the count (at least two): a `replicas` here would reset it on every `kubectl apply`,
      // stopping the hosts it had added under load.
      expect(deployment.spec.replicas).toBeUndefined();
      expect(one('HorizontalPodAutoscaler').spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
      expect(deployment.spec.selector.matchLabels).toEqual(podLabels);
      expect(pod.containers).toHaveLength(1);
    });

    it('is ready on /readyz and alive on /healthz, on the port it listens on', () => {
      const port = container.ports!.find(({ name }) => name === 'http')!;
      expect(port.containerPort).toBe(Number(envOf(container).PORT));
      expect(container.readinessProbe!.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe!.httpGet).toEqual({ path: '/healthz', port: 'http' });
      // A database outage makes a pod unready; liveness must not restart it for that.
      expect(container.livenessProbe!.httpGet!.path).not.toBe('/readyz');
      // One slow check (a CPU-throttled pod, a stalled Redis's 2 s) does not take a pod out of the Service; a draining
      // pod's 503s do within its shutdown delay.
      const readiness = container.readinessProbe!;
      expect(readiness.failureThreshold).toBeGreaterThanOrEqual(2);
      expect(readiness.failureThreshold! * readiness.periodSeconds! * 1000).toBeLessThanOrEqual(
        Number(envOf(container).SHUTDOWN_DELAY_MS),
      );
    });

    it('waits up to 5 minutes for a start, asking every second so a started pod soon counts as ready', () => {
      const startup = container.startupProbe!;
      expect(startup.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(startup.periodSeconds).toBe(1);
      expect(startup.failureThreshold! * startup.periodSeconds!).toBeGreaterThanOrEqual(300);
    });

    it('asks for resources and sets limits', () => {
      expect(container.resources!.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources!.limits).toEqual(expect.objectContaining({ memory: expect.any(String) }));
    });

    it('runs as non-root on a read-only root file system, every capability dropped, /tmp an emptyDir', () => {
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(container.securityContext).toEqual(
        expect.objectContaining({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        }),
      );
      const tmp = container.volumeMounts!.find(({ mountPath }) => mountPath === '/tmp')!;
      expect(pod.volumes.find(({ name }: { name: string }) => name === tmp.name).emptyDir).toBeDefined();
    });

    it('gives a stopping host time to drain: grace period above SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS', () => {
      const env = envOf(container);
      const drainMs = Number(env.SHUTDOWN_DELAY_MS) + Number(env.SHUTDOWN_TIMEOUT_MS);
      expect(drainMs).toBeGreaterThan(0);
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs);
    });

    it('takes the session secret, database URL, Redis URL and metrics token from the Secret, which holds each', () => {
      const secret = one('Secret');
      const fromSecret = Object.fromEntries(
        container
          .env!.filter(({ valueFrom }) => valueFrom?.secretKeyRef)
          .map(({ name, valueFrom }) => [name, valueFrom!.secretKeyRef!]),
      );
      expect(Object.keys(fromSecret).sort()).toEqual(['DATABASE_URL', 'METRICS_TOKEN', 'REDIS_URL', 'SESSION_SECRET']);
      for (const [name, ref] of Object.entries(fromSecret)) {
        expect(ref.name).toBe(secret.metadata.name);
        expect(Object.keys(secret.stringData)).toContain(ref.key);
        expect(ref.key).toBe(name);
      }
      // Example values only, and saying so.
      expect(secret.stringData.SESSION_SECRET).toMatch(/PLACEHOLDER/);
      expect(secret.stringData.DATABASE_URL).toMatch(/PLACEHOLDER/);
      expect(secret.stringData.METRICS_TOKEN).toMatch(/PLACEHOLDER/);
      expect(fs.readFileSync(path.join(DIR, 'secret.example.yaml'), 'utf8')).toMatch(/^# PLACEHOLDERS ONLY/);
    });

    it('names REMOTES_CONFIG as a file of the mounted ConfigMap, which the server accepts', () => {
      const configMap = one('ConfigMap');
      const file = envOf(container).REMOTES_CONFIG!;
      const mount = container.volumeMounts!.find(({ mountPath }) => file.startsWith(`${mountPath}/`))!;
      const volume = pod.volumes.find(({ name }: { name: string }) => name === mount.name);
      expect(volume.configMap.name).toBe(configMap.metadata.name);
      const key = file.slice(mount.mountPath.length + 1);
      expect(Object.keys(configMap.data)).toContain(key);

      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'slots-k8s-remotes-'));
      try {
        fs.writeFileSync(path.join(folder, key), configMap.data[key]);
        fs.mkdirSync(path.join(folder, 'dist'));
        const env = { REMOTES_CONFIG: path.join(folder, key), NODE_ENV: 'production' };
        expect(() => loadRemotesConfig({ env, distDir: path.join(folder, 'dist') })).not.toThrow();
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });

    it("gives the server an environment it accepts once the Secret's placeholders are replaced, and not before", () => {
      const secret = one('Secret');
      const unedited = { ...envOf(container), ...secret.stringData };
      // Applied unedited, the published placeholders would sign sessions and open /metrics: the start is refused.
      expect(() => readConfig(unedited)).toThrow(/SESSION_SECRET=.* not the example's placeholder/);
      const env = {
        ...unedited,
        SESSION_SECRET: 'a-secret-of-the-operators-own-0123456789',
        METRICS_TOKEN: 'a-metrics-token-of-their-own-0123',
      };
      const config = readConfig(env);
      expect(config.port).toBe(3000);
      expect(config.host).toBe('0.0.0.0');
      expect(config.postgres).toBeDefined();
      expect(config.redisUrl).toBeDefined();
      expect(config.trustProxy).not.toBe(false);
      // The commands the pods print run in a pod of this Deployment.
      expect(envOf(container).COMMAND_PREFIX).toBe(`kubectl exec -it deploy/${one('Deployment').metadata.name} --`);
    });
  });

  it('the Service, the PodDisruptionBudget and the autoscaler all point at the Deployment', () => {
    const deployment = one('Deployment');
    const podLabels = deployment.spec.template.metadata.labels;
    const service = one('Service');
    expect(podLabels).toEqual(expect.objectContaining(service.spec.selector));
    expect(service.spec.ports.map(({ targetPort }: { targetPort: string }) => targetPort)).toEqual(['http']);
    expect(service.spec.sessionAffinity ?? 'None').toBe('None');

    const hpa = one('HorizontalPodAutoscaler');
    const budget = one('PodDisruptionBudget');
    expect(podLabels).toEqual(expect.objectContaining(budget.spec.selector.matchLabels));
    // One host at a time through a drain at any scale: minAvailable: 1 would let a drain evict all but one of the
    // autoscaler's maxReplicas at once.
    expect(budget.spec.minAvailable).toBeUndefined();
    expect(budget.spec.maxUnavailable).toBe(1);
    expect(budget.spec.maxUnavailable).toBeLessThan(hpa.spec.minReplicas);

    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: deployment.metadata.name,
    });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
  });
  describe('the Ingresses (ingress-nginx), against deploy/nginx.example.conf', () => {
    const ingresses = manifests.filter(({ kind }) => kind === 'Ingress').map(({ body }) => body);
    const pathsOf = (ingress: any): string[] =>
      ingress.spec.rules.flatMap((rule: any) => rule.http.paths.map(({ path }: { path: string }) => path));
    const main = ingresses.find((ingress) => pathsOf(ingress).includes('/'));
    const buildFiles = ingresses.find((ingress) => ingress !== main);
    const annotation = (ingress: any, name: string): string | undefined =>
      ingress.metadata.annotations?.[`nginx.ingress.kubernetes.io/${name}`];

    const nginx = readNginxExample();
    const edge = serverListeningOn(nginx, 443);
    const locations = edge.filter(({ name }) => name === 'location');
    const nginxValue = (block: readonly NginxDirective[], name: string): string => {
      const args = directiveArgs(block, name);
      if (!args) throw new Error(`nginx.example.conf: no ${name} there`);
      return args.join(' ');
    };
    /** The example's locations that ask another instance after a 404: the build's files. */
    const buildFileLocations = locations.filter(({ block }) =>
      directiveArgs(block!, 'proxy_next_upstream')?.includes('http_404'),
    );

    it('are one for every path and one for the build files, both for ingress-nginx', () => {
      expect(ingresses).toHaveLength(2);
      expect(main).toBeDefined();
      expect(buildFiles).toBeDefined();
      for (const ingress of ingresses) expect(ingress.spec.ingressClassName).toBe('nginx');
    });

    it('send to the Service by its name, on a port the Service exposes', () => {
      const service = one('Service');
      const backends = ingresses.flatMap((ingress) =>
        ingress.spec.rules.flatMap((rule: any) => rule.http.paths.map(({ backend }: any) => backend)),
      );
      expect(backends.length).toBeGreaterThan(0);
      for (const backend of backends) {
        expect(backend.service.name).toBe(service.metadata.name);
        const { name, number } = backend.service.port;
        expect(
          service.spec.ports.some((port: { name?: string; port: number }) =>
            name === undefined ? port.port === number : port.name === name,
          ),
        ).toBe(true);
      }
    });

    it("answer on PUBLIC_URL's host, a placeholder, over TLS only", () => {
      const publicUrl = new URL(envOf(one('Deployment').spec.template.spec.containers[0]).PUBLIC_URL!);
      expect(publicUrl.protocol).toBe('https:');
      expect(publicUrl.hostname).toMatch(/\.example\.com$/);
      for (const ingress of ingresses) {
        expect(ingress.spec.rules.map(({ host }: { host: string }) => host)).toEqual([publicUrl.hostname]);
        expect(ingress.spec.tls).toEqual([{ hosts: [publicUrl.hostname], secretName: expect.any(String) }]);
        // The example's port 80 only redirects to HTTPS.
        expect(annotation(ingress, 'ssl-redirect')).toBe('true');
      }
      expect(directiveArgs(serverListeningOn(nginx, 80), 'return')).toEqual(['301', 'https://$host$request_uri']);
    });

    it("limit bodies and wait for a host as the example's server block does, on every path", () => {
      for (const ingress of ingresses) {
        expect(annotation(ingress, 'proxy-body-size')).toBe(nginxValue(edge, 'client_max_body_size'));
        // ingress-nginx takes whole seconds: `30s` would be refused and its own default (60) used instead.
        expect(annotation(ingress, 'proxy-read-timeout')).toMatch(/^\d+$/);
        expect(Number(annotation(ingress, 'proxy-read-timeout'))).toBe(
          nginxSeconds(nginxValue(edge, 'proxy_read_timeout')),
        );
      }
    });

    it("ask another host when the example's server block does, as many times, and never again for a POST", () => {
      expect(annotation(main, 'proxy-next-upstream')).toBe(nginxValue(edge, 'proxy_next_upstream'));
      expect(annotation(main, 'proxy-next-upstream-tries')).toBe(nginxValue(edge, 'proxy_next_upstream_tries'));
      expect(pathsOf(main)).toEqual(['/']);
      // A POST or PATCH that reached a host is sent to no other: neither file says non_idempotent.
      for (const ingress of ingresses) expect(annotation(ingress, 'proxy-next-upstream')).not.toMatch(/non_idempotent/);
      expect(fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'nginx.example.conf'), 'utf8')).not.toMatch(
        /non_idempotent\s*;/,
      );
    });

    it("ask another pod for a build file one lacks, as the example's build-file locations do", () => {
      expect(buildFileLocations.length).toBeGreaterThan(0);
      expect(pathsOf(buildFiles).sort()).toEqual(buildFileLocations.map(({ args }) => args.join(' ')).sort());
      for (const { block } of buildFileLocations) {
        expect(annotation(buildFiles, 'proxy-next-upstream')).toBe(nginxValue(block!, 'proxy_next_upstream'));
        // The example's 0 is "each instance of the upstream once"; ingress-nginx's Lua balancer adds a try for each
        // pod it picks, so 0 would be no end there: as many as the autoscaler may run.
        expect(nginxValue(block!, 'proxy_next_upstream_tries')).toBe('0');
      }
      expect(annotation(buildFiles, 'proxy-next-upstream-tries')).toBe(
        String(one('HorizontalPodAutoscaler').spec.maxReplicas),
      );
      for (const rule of buildFiles.spec.rules) {
        for (const { pathType } of rule.http.paths) expect(pathType).toBe('Prefix');
      }
    });

    it('use only values ingress-nginx accepts, and no snippet', () => {
      // What its annotation validators take; a value they refuse is dropped for the controller's default.
      const NEXT_UPSTREAM = /^((error|timeout|invalid_header|http_50[0234]|http_40[34]|http_429|off)( |$))+$/;
      for (const ingress of ingresses) {
        const annotations: Record<string, string> = ingress.metadata.annotations;
        expect(annotation(ingress, 'proxy-next-upstream')).toMatch(NEXT_UPSTREAM);
        expect(annotation(ingress, 'proxy-next-upstream-tries')).toMatch(/^\d+$/);
        expect(annotation(ingress, 'proxy-body-size')).toMatch(/^\d+[kKmM]?$/);
        for (const [name, value] of Object.entries(annotations)) {
          expect(name).toMatch(/^nginx\.ingress\.kubernetes\.io\/[a-z-]+$/);
          expect(name).not.toMatch(/snippet/);
          expect(typeof value).toBe('string');
        }
      }
    });

    it('are left out of the podman play (no controller there), which knows every other kind here', () => {
      const replicas = one('HorizontalPodAutoscaler').spec.minReplicas as number;
      const rendering = renderForPodman(readKubernetesManifests(), {
        suffix: 'paper',
        image: 'localhost/not-run',
        secretValues: Object.fromEntries(Object.keys(one('Secret').stringData).map((key) => [key, 'unused'])),
        // Nothing listens: the rendering only writes them into the YAML podman would play.
        hostPorts: Array.from({ length: replicas }, () => 0),
      });
      expect(Object.keys(rendering.notPlayed)).toContain('Ingress');
      expect(rendering.yaml).not.toMatch(/kind: Ingress/);
    });
  });
});

function envOf(container: IContainer): Record<string, string> {
  return Object.fromEntries(
    (container.env ?? []).flatMap(({ name, value }) => (value === undefined ? [] : [[name, value]])),
  );
}
