import fs from 'node:fs';
import path from 'node:path';
import { makeSelfSignedCert, type SelfSignedCert } from '../../testing/server/self-signed-cert';
import { readConfig } from '../env-config';
import { tlsSettingsFromEnv } from './tls-settings';

describe('tlsSettingsFromEnv', () => {
  let cert: SelfSignedCert;
  let other: SelfSignedCert;

  beforeAll(() => {
    cert = makeSelfSignedCert();
    other = makeSelfSignedCert();
  });
  afterAll(() => {
    cert.dir.remove();
    other.dir.remove();
  });

  it('is off (plain HTTP) when neither variable is set', () => {
    expect(tlsSettingsFromEnv({})).toBeUndefined();
    expect(tlsSettingsFromEnv({ TLS_CERT_FILE: ' ', TLS_KEY_FILE: '' })).toBeUndefined();
    expect(readConfig({}).tls).toBeUndefined();
  });

  it('reads both PEM files', () => {
    const settings = tlsSettingsFromEnv({ TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile });
    expect(settings).toMatchObject({ certFile: cert.certFile, keyFile: cert.keyFile });
    expect(settings?.cert.toString()).toContain('BEGIN CERTIFICATE');
    expect(readConfig({ TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile }).tls?.certFile).toBe(cert.certFile);
  });

  it('refuses one without the other, naming both', () => {
    expect(() => tlsSettingsFromEnv({ TLS_CERT_FILE: cert.certFile })).toThrow(
      'TLS_CERT_FILE is set but TLS_KEY_FILE is not',
    );
    expect(() => readConfig({ TLS_KEY_FILE: cert.keyFile })).toThrow('TLS_KEY_FILE is set but TLS_CERT_FILE is not');
  });

  it('refuses a file that cannot be read, naming the variable and the file', () => {
    const missing = path.join(cert.dir.path, 'missing.pem');
    expect(() => tlsSettingsFromEnv({ TLS_CERT_FILE: missing, TLS_KEY_FILE: cert.keyFile })).toThrow(
      `TLS_CERT_FILE=${JSON.stringify(missing)} cannot be read (ENOENT).`,
    );
  });

  it("refuses a file that is not PEM, and a key that is not the certificate's", () => {
    const garbage = path.join(cert.dir.path, 'garbage.pem');
    fs.writeFileSync(garbage, 'not a certificate\n');
    expect(() => tlsSettingsFromEnv({ TLS_CERT_FILE: garbage, TLS_KEY_FILE: cert.keyFile })).toThrow(
      /cannot serve HTTPS/,
    );
    expect(() => tlsSettingsFromEnv({ TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: other.keyFile })).toThrow(
      /cannot serve HTTPS: .*key values mismatch/,
    );
  });
});
