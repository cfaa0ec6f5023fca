import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { ConfigError } from './config-error';

/** The certificate and key the server answers HTTPS with (HTTP/2, and HTTP/1.1 for clients without it). */
export interface TlsSettings {
  /** Absolute paths, for the messages. */
  certFile: string;
  keyFile: string;
  /** PEM: the certificate, then any intermediates of its chain. */
  cert: Buffer;
  key: Buffer;
}

/**
 * `TLS_CERT_FILE` and `TLS_KEY_FILE` (PEM files): both set, the server itself speaks HTTPS, with HTTP/2 and
 * HTTP/1.1 for clients without it (told apart in the TLS handshake, ALPN), for deployments without a proxy in front;
 * neither set, it speaks plain HTTP/1.1 as before. One without the other, a file that cannot be read, or a key that
 * does not fit the certificate stops the start with a message naming the variable: a server that fell back to plain
 * HTTP, or failed on its first visitor, would hide the mistake.
 */
export function tlsSettingsFromEnv(env: NodeJS.ProcessEnv): TlsSettings | undefined {
  const certFile = env.TLS_CERT_FILE?.trim() || undefined;
  const keyFile = env.TLS_KEY_FILE?.trim() || undefined;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    const [set, missing] =
      certFile === undefined ? ['TLS_KEY_FILE', 'TLS_CERT_FILE'] : ['TLS_CERT_FILE', 'TLS_KEY_FILE'];
    throw new ConfigError(
      `${set} is set but ${missing} is not: HTTPS needs both the certificate and its private key (PEM files); ` +
        'set neither for plain HTTP behind a proxy.',
    );
  }
  const settings: TlsSettings = {
    certFile: path.resolve(certFile),
    keyFile: path.resolve(keyFile),
    cert: readPem('TLS_CERT_FILE', certFile),
    key: readPem('TLS_KEY_FILE', keyFile),
  };
  try {
    // What the server would do with the first connection: parse both and check that the key is the certificate's.
    createSecureContext({ cert: settings.cert, key: settings.key });
  } catch (error) {
    throw new ConfigError(
      `TLS_CERT_FILE (${settings.certFile}) and TLS_KEY_FILE (${settings.keyFile}) cannot serve HTTPS: ` +
        `${(error as Error).message}. Give a PEM certificate and the private key it was made for.`,
    );
  }
  return settings;
}

function readPem(name: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`${name}=${JSON.stringify(file)} cannot be read (${reason}).`);
  }
}
