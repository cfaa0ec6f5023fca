/** The path the OTLP/HTTP exporter appends to `OTEL_EXPORTER_OTLP_ENDPOINT` for traces (not to the traces' own). */
const TRACES_PATH = 'v1/traces';

/** Where spans are sent, and the variable that said so. */
export interface OtlpTracesUrl {
  variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT';
  /** The URL each batch is posted to, as the exporter works it out from the variable. */
  url: string;
}

/**
 * The URL spans are posted to: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else `OTEL_EXPORTER_OTLP_ENDPOINT` with
 * `/v1/traces` appended, as the OTLP exporter derives it (the specification's rule); nothing when neither is set.
 * Checked, naming the variable: anything but an http(s) address the exporter would take for a path on its default
 * collector, and send there without a word; and a base endpoint that already ends in `/v1/traces` (the whole URL a
 * collector's documentation shows) would have the spans posted to `…/v1/traces/v1/traces`, answered 404 by every
 * collector, so an operator who set tracing up by the book got no traces.
 */
export function otlpTracesUrlOf(env: NodeJS.ProcessEnv): OtlpTracesUrl | null {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const endpoint = env[variable]?.trim();
  if (!endpoint) return null;
  if (!/^https?:\/\/[^/]/i.test(endpoint) || !URL.canParse(endpoint)) {
    throw new Error(
      `${variable} must be an http:// or https:// address, like http://collector:4318 (got "${endpoint}").`,
    );
  }
  if (variable === 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') return { variable, url: new URL(endpoint).toString() };
  const base = new URL(endpoint);
  if (/\/v1\/traces\/?$/.test(base.pathname)) {
    const collector = `${base.origin}${base.pathname.replace(/\/?v1\/traces\/?$/, '')}`;
    throw new Error(
      `OTEL_EXPORTER_OTLP_ENDPOINT="${endpoint}" ends in /v1/traces, which the server appends itself: spans would ` +
        `go to ${withTracesPath(endpoint)}. Give the collector's address alone (OTEL_EXPORTER_OTLP_ENDPOINT=` +
        `${collector}), or this whole URL as OTEL_EXPORTER_OTLP_TRACES_ENDPOINT.`,
    );
  }
  return { variable, url: withTracesPath(endpoint) };
}

function withTracesPath(endpoint: string): string {
  return `${endpoint.endsWith('/') ? endpoint : `${endpoint}/`}${TRACES_PATH}`;
}
