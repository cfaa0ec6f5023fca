import type { BaseImageOptions } from './node-base-image';
import { ensurePackageImage } from './package-image';
import { STANDIN_SPECS } from './standin-images';

/**
 * The nginx stand-in with `openssl`, as the public `nginx` image has it (through ca-certificates): the compose file's
 * proxy makes its self-signed certificate with it at first start (deploy/compose/proxy-start.sh).
 */
export function ensureStandinProxyImage(options: BaseImageOptions = {}): Promise<string> {
  const nginx = STANDIN_SPECS.nginx;
  return ensurePackageImage(
    { ...nginx, name: 'localhost/slots-standin/nginx-openssl:stable', packages: [...nginx.packages, 'openssl'] },
    options,
  );
}
