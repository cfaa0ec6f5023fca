import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Certificates a TLS test makes for itself with openssl (Node's crypto cannot make X.509 certificates), as PEM files
 * `<name>.pem` and `<name>.key` in the folder `dir`: an authority of its own (a company's), server certificates it
 * issues for chosen names and dates, a self-signed one. For tests of who trusts what (NODE_EXTRA_CA_CERTS, a name
 * mismatch, an expired certificate); a server that only needs HTTPS takes testing/server/self-signed-cert.ts.
 */

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** `openssl <args>` in `dir`; its output. */
export function openssl(dir: string, args: readonly string[]): string {
  return execFileSync('openssl', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A certificate authority of its own: `<name>.pem` and `<name>.key`, named `commonName`, valid two days. */
export function makeAuthority(dir: string, name: string, commonName: string): void {
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '2',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
  ]);
}

/**
 * A server certificate `<name>.pem` (key `<name>.key`, subject `/CN=product`) issued by the authority `ca` (its
 * `<ca>.pem` and `<ca>.key` in `dir`) for `altNames` (`DNS:localhost,IP:127.0.0.1`), valid between two instants
 * given as YYYYMMDDHHMMSSZ (`openssl ca`, the one command that takes both).
 */
export function makeServerCertificate(
  dir: string,
  name: string,
  altNames: string,
  notBefore: string,
  notAfter: string,
  ca = 'ca',
): void {
  openssl(dir, ['req', ...EC_KEY, '-subj', '/CN=product', '-keyout', `${name}.key`, '-out', `${name}.csr`]);
  writeFileSync(path.join(dir, `${name}.index`), '');
  writeFileSync(path.join(dir, `${name}.serial`), '01\n');
  writeFileSync(
    path.join(dir, `${name}.cnf`),
    [
      '[ca]',
      'default_ca = issuer',
      '[issuer]',
      `database = ${name}.index`,
      'new_certs_dir = .',
      `serial = ${name}.serial`,
      'default_md = sha256',
      'policy = any',
      '[any]',
      'commonName = supplied',
      '[server]',
      `subjectAltName = ${altNames}`,
      'basicConstraints = CA:FALSE',
      'extendedKeyUsage = serverAuth',
      '',
    ].join('\n'),
  );
  openssl(dir, [
    'ca',
    '-batch',
    '-notext',
    '-config',
    `${name}.cnf`,
    '-cert',
    `${ca}.pem`,
    '-keyfile',
    `${ca}.key`,
    '-in',
    `${name}.csr`,
    '-out',
    `${name}.pem`,
    '-startdate',
    notBefore,
    '-enddate',
    notAfter,
    '-extensions',
    'server',
  ]);
}

/** A self-signed certificate `<name>.pem` (key `<name>.key`) for `commonName` and `altNames`, valid two days. */
export function makeSelfSignedCertificate(dir: string, name: string, commonName: string, altNames: string): void {
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '2',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    `subjectAltName=${altNames}`,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
  ]);
}

/** An instant `days` from now (negative: before), as YYYYMMDDHHMMSSZ for {@link makeServerCertificate}. */
export function daysFromNow(days: number): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/** `DNS:localhost,IP:127.0.0.1`: what a test server on this machine answers as. */
export const THIS_MACHINE = 'DNS:localhost,IP:127.0.0.1';
