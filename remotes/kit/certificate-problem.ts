/**
 * `slots-remote release` against a product whose TLS certificate Node.js refuses: one from a company's own
 * certificate authority, a self-signed one, one for another host name, an expired one. Node's own words
 * (`unable to verify the first certificate`, `self-signed certificate in certificate chain`) say neither what is wrong
 * nor what to do, and "check that the product is up" would send the team the wrong way: the product answered. The
 * lines here say which of these it is, what the certificate names and who issued it, and the remedy, which is never
 * to turn verification off (the token would go to whoever answers).
 */
import { createHash, X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';

/** Node's variable for certificate authorities to trust beside its own, read once as the process starts. */
export const EXTRA_CA_CERTS_ENV = 'NODE_EXTRA_CA_CERTS';

/** How long the certificate is read for the message: as long as the deployed build's check waits. */
const READ_CERTIFICATE_TIMEOUT_MS = 3_000;

/** What a refused certificate comes to for the team: each has its own remedy. */
export type CertificateProblemKind =
  | 'untrusted'
  | 'self-signed'
  | 'wrong-name'
  | 'expired'
  | 'not-yet-valid'
  | 'refused';

/** OpenSSL's verification codes (and Node's host name check) as the team's problem. */
const KIND_OF_CODE: Readonly<Record<string, CertificateProblemKind>> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted',
  CERT_UNTRUSTED: 'untrusted',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'wrong-name',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not-yet-valid',
  CERT_REVOKED: 'refused',
  CERT_REJECTED: 'refused',
  CERT_SIGNATURE_FAILURE: 'refused',
  CERT_CHAIN_TOO_LONG: 'refused',
  INVALID_CA: 'refused',
  INVALID_PURPOSE: 'refused',
  PATH_LENGTH_EXCEEDED: 'refused',
  UNABLE_TO_DECRYPT_CERT_SIGNATURE: 'refused',
  UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY: 'refused',
  ERROR_IN_CERT_NOT_BEFORE_FIELD: 'refused',
  ERROR_IN_CERT_NOT_AFTER_FIELD: 'refused',
};

/** Codes where the authority may be a public one whose intermediate certificate the server does not send. */
const MAYBE_MISSING_INTERMEDIATE = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']);

export interface CertificateProblem {
  kind: CertificateProblemKind;
  /** Node's or OpenSSL's code, e.g. `SELF_SIGNED_CERT_IN_CHAIN`. */
  code: string;
  /** Node's own words for it. */
  said: string;
  /** For a wrong name: the names the certificate holds, as Node's error gives them. */
  names?: string[];
}

/** The certificate problem a failed `fetch` ended with (its `cause`), or null for any other failure. */
export function certificateProblemOf(error: unknown): CertificateProblem | null {
  const cause = (error as { cause?: { code?: unknown; message?: unknown; cert?: { subjectaltname?: unknown } } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const kind = KIND_OF_CODE[code];
  if (kind === undefined) return null;
  const said = String(cause?.message ?? code).trim();
  const altNames = cause?.cert?.subjectaltname;
  return typeof altNames === 'string' ? { kind, code, said, names: subjectAltNames(altNames) } : { kind, code, said };
}

/** `DNS:a.example, IP Address:10.0.0.1` as `['a.example', '10.0.0.1']`. */
function subjectAltNames(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim().replace(/^(DNS|IP Address):/, ''))
    .filter((name) => name !== '');
}

/** What the product's certificate says of itself, read for the message only. */
export interface PresentedCertificate {
  /** Its subject's common name (else organisation). */
  subject: string;
  /** Who issued it, by common name (else organisation). */
  issuer: string;
  /** The top of the chain the server sent, when it sent more than its own certificate and that top signs itself. */
  root: string | null;
  /** The host names and addresses it is for. */
  names: string[];
  validFrom: Date;
  validTo: Date;
  /** SHA-256 of the certificate, as `openssl x509 -fingerprint -sha256` prints it: to compare with the operators'. */
  fingerprint: string;
}

function nameOf(entity: { CN?: string | string[]; O?: string | string[] } | undefined): string {
  const name = entity?.CN ?? entity?.O;
  return (Array.isArray(name) ? name.join(', ') : name) ?? '(no name)';
}

/**
 * The certificate `origin` presents, from a TLS handshake that verifies nothing and sends nothing after it: what a
 * browser's padlock shows. Null when it cannot be read (the message then does without it).
 */
export function readPresentedCertificate(
  origin: string,
  timeoutMs = READ_CERTIFICATE_TIMEOUT_MS,
): Promise<PresentedCertificate | null> {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      // SNI takes a host name only, never an address.
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
      rejectUnauthorized: false,
    });
    const done = (certificate: PresentedCertificate | null) => {
      socket.destroy();
      resolve(certificate);
    };
    socket.setTimeout(timeoutMs, () => done(null));
    socket.once('error', () => done(null));
    socket.once('secureConnect', () => {
      const leaf = socket.getPeerCertificate(true);
      if (!leaf?.raw) return done(null);
      let top = leaf;
      while (top.issuerCertificate && top.issuerCertificate.fingerprint256 !== top.fingerprint256) {
        top = top.issuerCertificate;
      }
      const topSignsItself = top.issuerCertificate?.fingerprint256 === top.fingerprint256;
      const x509 = new X509Certificate(leaf.raw);
      done({
        subject: nameOf(leaf.subject),
        issuer: nameOf(leaf.issuer),
        root: top !== leaf && topSignsItself ? nameOf(top.subject) : null,
        names: subjectAltNames(leaf.subjectaltname ?? ''),
        validFrom: new Date(x509.validFrom),
        validTo: new Date(x509.validTo),
        fingerprint: createHash('sha256')
          .update(leaf.raw)
          .digest('hex')
          .toUpperCase()
          .replace(/(..)(?!$)/g, '$1:'),
      });
    });
  });
}

/** A date as the team compares it with its clock: `2026-01-02 00:00 UTC`. */
function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const NEVER_TURN_OFF =
  'Never set NODE_TLS_REJECT_UNAUTHORIZED=0 instead: the token would go to whoever answers at that address.';

/** How to hand Node a certificate to trust, for the command and in CI. */
function trustHow(what: string, example: string): string {
  return (
    `give the path of ${what} in ${EXTRA_CA_CERTS_ENV}, which Node reads as it starts: ` +
    `${EXTRA_CA_CERTS_ENV}=${example} npm run release -- … (in CI, a variable of the job).`
  );
}

/**
 * NODE_EXTRA_CA_CERTS is one file for the whole command, which reads the team's origin (the deployed build's check)
 * and then the product: replacing the file to trust one would drop the other, so the messages say to add to it.
 */
function severalInOneFile(other: string): string {
  return (
    `A file may hold several certificates, one after the other: ${other} too, when it needs one ` +
    '(cat company-ca.pem origin-ca.pem > cas.pem).'
  );
}

/** Node names a NODE_EXTRA_CA_CERTS file it could not read in a warning of its own, before the command's lines. */
const UNREADABLE = 'a file Node could not read is named in a warning above';

/** What the untrusted-authority lines say differently of the product's certificate and of the team's origin's. */
interface UntrustedAuthorityWords {
  /** Who has the authority's certificate, e.g. `your IT or the product's operators have`. */
  holders: string;
  /** Whose certificate the authority issued, e.g. `the product's`. */
  whose: string;
  /** Said after "to that file" when NODE_EXTRA_CA_CERTS is given, e.g. `, not the product's own`; else empty. */
  notItsOwn: string;
  /** Who leaves out the intermediate certificate (`the server`), and how that is mended. */
  leavesOut: string;
  addIntermediate: string;
  /** The other party whose authority the NODE_EXTRA_CA_CERTS file may hold too (`severalInOneFile`). */
  other: string;
  /** Whether the remedy says so when NODE_EXTRA_CA_CERTS is not given yet too (the other may need one as well). */
  otherWhenUnset: boolean;
}

/**
 * For a certificate from an authority Node does not know: who issued it (the first line's cause), how to trust
 * that authority, given NODE_EXTRA_CA_CERTS or not, and when the authority may be a public one, the intermediate
 * certificate left out. The product's certificate and the team's origin's differ only in `words`.
 */
function untrustedAuthority(
  problem: CertificateProblem,
  certificate: PresentedCertificate | null,
  given: string | undefined,
  words: UntrustedAuthorityWords,
): { issuedBy: string; remedy: string; intermediate: string } {
  const authority = certificate?.root ?? certificate?.issuer;
  const named = authority === undefined ? 'an authority' : `"${authority}", an authority`;
  const several = severalInOneFile(words.other);
  const intermediate = MAYBE_MISSING_INTERMEDIATE.has(problem.code)
    ? ` When that authority is a public one, ${words.leavesOut} leaves out the intermediate certificate that leads ` +
      `to it: ${words.addIntermediate}`
    : '';
  const remedy =
    given === undefined
      ? `Trust that authority for this command: ${trustHow(`its certificate, a PEM file ${words.holders},`, '/path/to/company-ca.pem')}` +
        (words.otherWhenUnset ? ` ${several}` : '')
      : `${EXTRA_CA_CERTS_ENV} is set (${given}) but holds no certificate of ${authority === undefined ? 'that authority' : `"${authority}"`}: ` +
        `add the certificate of the authority that issued ${words.whose} to that file${words.notItsOwn} (${UNREADABLE}). ` +
        several;
  return {
    issuedBy: `it was issued by ${named} Node.js does not know, most often a company's own.`,
    remedy,
    intermediate,
  };
}

/**
 * The lines `slots-remote release` prints for a certificate it refused at `server`. `certificate` is what the
 * server presented, when it could be read; `env` says whether the team gave Node a certificate already.
 */
export function certificateProblemLines(
  server: string,
  problem: CertificateProblem,
  certificate: PresentedCertificate | null,
  env: NodeJS.ProcessEnv,
  now: Date = new Date(),
): string[] {
  const nothingSent = 'Nothing was sent, the token included.';
  const given = env[EXTRA_CA_CERTS_ENV]?.trim() || undefined;
  switch (problem.kind) {
    case 'untrusted': {
      const { issuedBy, remedy, intermediate } = untrustedAuthority(problem, certificate, given, {
        holders: "your IT or the product's operators have",
        whose: "the product's",
        notItsOwn: ", not the product's own",
        leavesOut: 'the server',
        addIntermediate: "the product's operators add it to the server's certificate file.",
        other: "your origin's authority",
        otherWhenUnset: false,
      });
      return [
        `The certificate of ${server} is not trusted here (${problem.said}): ${issuedBy} ${nothingSent}`,
        `${remedy}${intermediate} ${NEVER_TURN_OFF}`,
      ];
    }
    case 'self-signed': {
      const which = certificate ? ` (subject "${certificate.subject}", SHA-256 ${certificate.fingerprint})` : '';
      const remedy =
        given === undefined
          ? "When it is the product's own certificate (ask its operators for the file, or compare its fingerprint " +
            `with theirs), trust it for this command: ${trustHow('that certificate, a PEM file,', '/path/to/product-cert.pem')}`
          : `${EXTRA_CA_CERTS_ENV} is set (${given}) but does not hold this certificate: add the product's own ` +
            `certificate, whose fingerprint is above, to that file (${UNREADABLE}). ${severalInOneFile("your origin's certificate")}`;
      return [
        `The certificate of ${server} is not trusted here (${problem.said}): it signs itself${which}, no authority ` +
          `Node.js knows vouches for it. ${nothingSent}`,
        `${remedy} ${NEVER_TURN_OFF}`,
      ];
    }
    case 'wrong-name': {
      const url = new URL(server);
      const names = problem.names ?? certificate?.names ?? [];
      const hostName = names.find((name) => !name.includes('*') && net.isIP(name) === 0);
      const example =
        hostName === undefined ? '' : `, e.g. ${url.protocol}//${hostName}${url.port ? `:${url.port}` : ''}`;
      return [
        `The certificate of ${server} is not for "${url.hostname}": it names ` +
          `${names.length > 0 ? names.join(', ') : 'no host'}. ${nothingSent}`,
        `Give --server or SLOTS_RELEASE_SERVER with a name the certificate holds${example}: the address where staff ` +
          "open the product. When that is the address you gave, the product's operators need a certificate that " +
          `names it. ${NEVER_TURN_OFF}`,
      ];
    }
    case 'expired': {
      const when =
        certificate !== null && certificate.validTo < now
          ? `expired on ${utc(certificate.validTo)}`
          : 'expired (one of the chain the server sends)';
      return [
        `The certificate of ${server} ${when}; this machine's clock says ${utc(now)}. ${nothingSent}`,
        "Only the product's operators can renew it: tell them. Trusting its authority " +
          `(${EXTRA_CA_CERTS_ENV}) does not help. ${NEVER_TURN_OFF}`,
      ];
    }
    case 'not-yet-valid':
      return [
        `The certificate of ${server} is not valid yet` +
          `${certificate ? ` (from ${utc(certificate.validFrom)})` : ''}; this machine's clock says ${utc(now)}. ` +
          nothingSent,
        "Set this machine's clock right when it is behind; else tell the product's operators. " + NEVER_TURN_OFF,
      ];
    case 'refused':
      return [
        `The certificate of ${server} was refused (${problem.said}). ${nothingSent}`,
        `Tell the product's operators. ${NEVER_TURN_OFF}`,
      ];
  }
}

const NEVER_TURN_OFF_FOR_ORIGIN =
  'Never set NODE_TLS_REJECT_UNAUTHORIZED=0 instead: it turns the check off for the product as well, and the token ' +
  'would go to whoever answers at its address.';

/**
 * The lines `slots-remote release` prints for a certificate it refused at the team's own origin, where `entry` is
 * deployed, before anything is sent to `server`. The remedies are the team's (its origin, its NODE_EXTRA_CA_CERTS
 * file, which may already hold the product's authority), not the product's operators'; the product's servers and the
 * staff's browsers check the same certificate.
 */
export function originCertificateProblemLines(
  entry: string,
  server: string,
  problem: CertificateProblem,
  certificate: PresentedCertificate | null,
  env: NodeJS.ProcessEnv,
  now: Date = new Date(),
): string[] {
  const entryUrl = new URL(entry);
  const origin = entryUrl.origin;
  const notCompared = `The build deployed there could not be compared with remote.ts: nothing was sent to ${server}.`;
  const othersRefuse = `Nothing was sent to ${server}: the product's servers and the staff's browsers refuse it too.`;
  const given = env[EXTRA_CA_CERTS_ENV]?.trim() || undefined;
  const oneFile = severalInOneFile("the product's authority");
  const alsoThere =
    "The product's servers check the same certificate when you publish, and the staff's browsers when they load " +
    "your components: the product's operators trust it there too.";
  switch (problem.kind) {
    case 'untrusted': {
      const { issuedBy, remedy, intermediate } = untrustedAuthority(problem, certificate, given, {
        holders: 'your IT or whoever serves your origin has',
        whose: "your origin's",
        notItsOwn: '',
        leavesOut: 'your origin',
        addIntermediate: "add it to your origin's certificate file.",
        other: "the product's authority",
        otherWhenUnset: true,
      });
      return [
        `The certificate of your origin ${origin} is not trusted here (${problem.said}): ${issuedBy} ${notCompared}`,
        `${remedy} ${alsoThere}${intermediate} ${NEVER_TURN_OFF_FOR_ORIGIN}`,
      ];
    }
    case 'self-signed': {
      const which = certificate ? ` (subject "${certificate.subject}", SHA-256 ${certificate.fingerprint})` : '';
      const remedy =
        given === undefined
          ? `When it is your origin's own certificate, trust it for this command: ${trustHow('that certificate, a PEM file,', '/path/to/origin-cert.pem')} ${oneFile}`
          : `${EXTRA_CA_CERTS_ENV} is set (${given}) but does not hold this certificate: add your origin's own ` +
            `certificate, whose fingerprint is above, to that file (${UNREADABLE}). ${oneFile}`;
      return [
        `The certificate of your origin ${origin} is not trusted here (${problem.said}): it signs itself${which}, no ` +
          `authority Node.js knows vouches for it. ${notCompared}`,
        `${remedy} ${alsoThere} A certificate of your company's authority, or of a public one, spares them that. ` +
          NEVER_TURN_OFF_FOR_ORIGIN,
      ];
    }
    case 'wrong-name': {
      const names = problem.names ?? certificate?.names ?? [];
      const hostName = names.find((name) => !name.includes('*') && net.isIP(name) === 0);
      const example =
        hostName === undefined
          ? ''
          : `, e.g. ${entryUrl.protocol}//${hostName}${entryUrl.port ? `:${entryUrl.port}` : ''}${entryUrl.pathname}`;
      return [
        `The certificate of your origin ${origin} is not for "${entryUrl.hostname}": it names ` +
          `${names.length > 0 ? names.join(', ') : 'no host'}. ${othersRefuse}`,
        `Give --entry or SLOTS_RELEASE_ENTRY with a name the certificate holds${example}, or serve your origin with a ` +
          `certificate that names "${entryUrl.hostname}". ${NEVER_TURN_OFF_FOR_ORIGIN}`,
      ];
    }
    case 'expired': {
      const when =
        certificate !== null && certificate.validTo < now
          ? `expired on ${utc(certificate.validTo)}`
          : 'expired (one of the chain your origin sends)';
      return [
        `The certificate of your origin ${origin} ${when}; this machine's clock says ${utc(now)}. ${othersRefuse}`,
        'Renew it (whoever serves your origin does: your team, your CDN or host), then publish again. Trusting its ' +
          `authority (${EXTRA_CA_CERTS_ENV}) does not help.`,
      ];
    }
    case 'not-yet-valid':
      return [
        `The certificate of your origin ${origin} is not valid yet` +
          `${certificate ? ` (from ${utc(certificate.validFrom)})` : ''}; this machine's clock says ${utc(now)}. ` +
          `Nothing was sent to ${server}.`,
        "Set this machine's clock right when it is behind; else replace the certificate on your origin.",
      ];
    case 'refused':
      return [
        `The certificate of your origin ${origin} was refused (${problem.said}). ${othersRefuse}`,
        `Replace it on your origin (whoever serves your origin does), then publish again. ${NEVER_TURN_OFF_FOR_ORIGIN}`,
      ];
  }
}
