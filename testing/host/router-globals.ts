import { TextDecoder, TextEncoder } from 'node:util';

/**
 * What react-router reads from the browser that jsdom (Jest's browser environment) lacks. Tests of router-based
 * code import this module first.
 *
 * - TextEncoder/TextDecoder, read when react-router loads.
 * - The Fetch API's Request: the data router makes one per navigation, to hand to route loaders and actions. The
 *   host's routes have neither, so nothing reads more of it than its URL, method, headers and abort signal.
 */
const holder = globalThis as { TextEncoder?: unknown; TextDecoder?: unknown; Request?: unknown };
if (holder.TextEncoder === undefined) holder.TextEncoder = TextEncoder;
if (holder.TextDecoder === undefined) holder.TextDecoder = TextDecoder;

class NavigationRequest {
  readonly url: string;
  readonly method: string;
  readonly signal: AbortSignal;
  readonly headers: Map<string, string>;

  constructor(url: string | URL, init: { method?: string; signal?: AbortSignal | null } = {}) {
    this.url = String(url);
    this.method = (init.method ?? 'GET').toUpperCase();
    this.signal = init.signal ?? new AbortController().signal;
    this.headers = new Map();
  }
}

if (holder.Request === undefined) holder.Request = NavigationRequest;
