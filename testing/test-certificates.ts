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

/** `openssl req -x509`: a certificate `<name>.pem` (key `<name>.key`) that signs itself, valid two days. */
function makeCertificateSigningItself(
  dir: string,
  name: string,
  commonName: string,
  extensions: readonly string[],
): void {
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '2',
    '-subj',
    `/CN=${commonName}`,
    ...extensions.flatMap((extension) => ['-addext', extension]),
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
  ]);
}

/** A certificate authority of its own: `<name>.pem` and `<name>.key`, named `commonName`, valid two days. */
export function makeAuthority(dir: string, name: string, commonName: string): void {
  makeCertificateSigningItself(dir, name, commonName, [
    'basicConstraints=critical,CA:TRUE',
    'keyUsage=critical,keyCertSign,cRLSign',
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
  makeCertificateSigningItself(dir, name, commonName, [`subjectAltName=${altNames}`]);
}

/** The SHA-256 fingerprint of `<name>.pem` in `dir` (`AB:CD:…`), as `openssl x509 -fingerprint -sha256` prints it. */
export function fingerprintOf(dir: string, name: string): string {
  return openssl(dir, ['x509', '-in', `${name}.pem`, '-noout', '-fingerprint', '-sha256'])
    .trim()
    .replace(/^.*=/, '');
}

/** An instant `days` from now (negative: before), as YYYYMMDDHHMMSSZ for {@link makeServerCertificate}. */
export function daysFromNow(days: number): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/** `DNS:localhost,IP:127.0.0.1`: what a test server on this machine answers as. */
export const THIS_MACHINE = 'DNS:localhost,IP:127.0.0.1';

/**
 * The certificates of a test of what Node refuses, in `dir`: the authority `ca` named `authority`, and `other-ca`
 * (for a NODE_EXTRA_CA_CERTS holding another one); issued by `ca`, `company` for this machine, `other-name` for
 * `otherName` only (`DNS:admin.example.com`), `expired` (in 2020); `self`, self-signed for this machine, named
 * `selfSigned`.
 */
export function makeRefusedCertificates(
  dir: string,
  names: { authority: string; otherName: string; selfSigned: string },
): void {
  makeAuthority(dir, 'ca', names.authority);
  makeAuthority(dir, 'other-ca', 'Some Other CA');
  makeServerCertificate(dir, 'company', THIS_MACHINE, daysFromNow(-1), daysFromNow(2));
  makeServerCertificate(dir, 'other-name', names.otherName, daysFromNow(-1), daysFromNow(2));
  makeServerCertificate(dir, 'expired', THIS_MACHINE, '20200101000000Z', '20200102000000Z');
  makeSelfSignedCertificate(dir, 'self', names.selfSigned, THIS_MACHINE);
}
