import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startContainer, type Container } from './container';
import type { BaseImageOptions } from './node-base-image';
import { ensurePackageImage } from './package-image';
import { STANDIN_SPECS } from './standin-images';
import { REPO_ROOT } from '../system/repo-root';

/**
 * The nginx stand-in with `openssl` and `curl`, as the public `nginx` image has them: the compose file's proxy makes
 * its self-signed certificate with the first at start, and asks each host's /readyz with the second to keep its
 * upstream to the ready hosts (deploy/compose/proxy-start.sh).
 */
export function ensureStandinProxyImage(options: BaseImageOptions = {}): Promise<string> {
  const nginx = STANDIN_SPECS.nginx;
  return ensurePackageImage(
    {
      ...nginx,
      name: 'localhost/slots-standin/nginx-openssl:stable',
      packages: [...nginx.packages, 'openssl', 'curl'],
    },
    options,
  );
}

/**
 * A self-signed certificate for the proxy (`name`, two days) in `<dir>/tls` (`tls.crt`, `tls.key`), the folder
 * mounted where the nginx configurations read it. The key is readable by all: nginx's workers in the
 * container run as another user than the test's.
 * @returns the folder
 */
export function writeProxyCertificate(dir: string, name = 'admin.example.com'): string {
  const tls = path.join(dir, 'tls');
  fs.mkdirSync(tls);
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`],
      ...['-keyout', path.join(tls, 'tls.key'), '-out', path.join(tls, 'tls.crt')],
    ],
    { stdio: 'ignore' },
  );
  fs.chmodSync(path.join(tls, 'tls.key'), 0o644);
  return tls;
}

/**
 * The compose file's proxy as it runs there: deploy/compose/nginx.conf and proxy-start.sh from this checkout, over
 * the hosts `host-a` and `host-b` of `network` on port 3000, serving HTTPS on 443 with the certificate folder `tls`
 * (writeProxyCertificate makes one there, or proxy-start.sh does when it is empty).
 */
export function startComposeProxy(options: {
  image: string;
  namePrefix: string;
  network: string;
  tls: string;
}): Promise<Container> {
  return startContainer({
    image: options.image,
    namePrefix: options.namePrefix,
    publish: [443],
    env: { PROXY_UPSTREAM_HOSTS: 'host-a host-b', PROXY_UPSTREAM_PORT: '3000', PUBLIC_HTTPS_PORT: '443' },
    volumes: [
      `${path.join(REPO_ROOT, 'deploy', 'compose', 'nginx.conf')}:/etc/nginx/conf.d/default.conf:ro`,
      `${path.join(REPO_ROOT, 'deploy', 'compose', 'proxy-start.sh')}:/etc/slots-proxy/proxy-start.sh:ro`,
      `${options.tls}:/etc/slots-tls`,
    ],
    runOptions: ['--network', options.network],
    command: ['/bin/sh', '/etc/slots-proxy/proxy-start.sh'],
  });
}
