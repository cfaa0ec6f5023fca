import type { BaseImageOptions } from './node-base-image';
import { ensurePackageImage } from './package-image';
import { STANDIN_SPECS } from './standin-images';

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
