import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../temp-dir';

/** A certificate and its key as PEM files, for a test server speaking HTTPS (TLS_CERT_FILE, TLS_KEY_FILE). */
export interface SelfSignedCert {
  certFile: string;
  keyFile: string;
  dir: TempDir;
  /**
   * Base64 SHA-256 of the certificate's public key, for Chromium's `--ignore-certificate-errors-spki-list`: Chromium
   * then trusts this certificate as it would a valid one, and caches what it loads (with errors only ignored, as
   * `ignoreHTTPSErrors` or `--ignore-certificate-errors` do, it caches nothing: a warm load would be a cold one).
   */
  spkiHash: string;
}

/**
 * A fresh self-signed certificate for `localhost` and 127.0.0.1, made by `openssl req -x509` (Node's crypto cannot
 * make X.509 certificates). Clients of the tests skip verification (`rejectUnauthorized: false`, Chromium's
 * --ignore-certificate-errors): what is tested is the server's HTTPS, not a chain of trust.
 */
export function makeSelfSignedCert(): SelfSignedCert {
  const dir = makeTempDir('slots-tls-');
  const certFile = path.join(dir.path, 'cert.pem');
  const keyFile = path.join(dir.path, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const publicKey = new X509Certificate(readFileSync(certFile)).publicKey.export({ type: 'spki', format: 'der' });
  return { certFile, keyFile, dir, spkiHash: createHash('sha256').update(publicKey).digest('base64') };
}
