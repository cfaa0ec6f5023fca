import { TextDecoder, TextEncoder } from 'node:util';

/**
 * jsdom (Jest's browser environment) lacks TextEncoder/TextDecoder, which react-router reads when it loads. Browsers
 * have them; tests of router-based code import this module first.
 */
const holder = globalThis as { TextEncoder?: unknown; TextDecoder?: unknown };
if (holder.TextEncoder === undefined) holder.TextEncoder = TextEncoder;
if (holder.TextDecoder === undefined) holder.TextDecoder = TextDecoder;
