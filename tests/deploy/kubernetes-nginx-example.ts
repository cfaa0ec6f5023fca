/**
 * deploy/nginx.example.conf read as nginx reads it (directives, their arguments, their blocks), so that
 * kubernetes-manifests.test.ts compares the Ingress's annotations with the example's own values instead of a second
 * copy of them. Enough of nginx's syntax for that file: words, quoted strings, comments, `;`, `{` and `}`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../testing/system/repo-root';

export const NGINX_EXAMPLE = path.join(REPO_ROOT, 'deploy', 'nginx.example.conf');

export interface NginxDirective {
  name: string;
  args: string[];
  /** The directives inside its braces, for a block (`server`, `location`, `map`, ...). */
  block?: NginxDirective[];
}

// A comment, a single- or double-quoted string, a brace or semicolon, or a bare word (a `#` inside one is a word's).
const TOKEN = /#[^\n]*|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([{};])|([^\s{};'"]+)/g;

export function parseNginx(text: string): NginxDirective[] {
  const tokens: { punctuation?: string; word?: string }[] = [];
  for (const match of text.matchAll(TOKEN)) {
    if (match[0].startsWith('#')) continue;
    if (match[3] !== undefined) tokens.push({ punctuation: match[3] });
    else tokens.push({ word: match[1] ?? match[2] ?? match[4]! });
  }
  let at = 0;
  const parseBlock = (closing: boolean): NginxDirective[] => {
    const directives: NginxDirective[] = [];
    while (at < tokens.length) {
      if (tokens[at]!.punctuation === '}') {
        if (!closing) throw new Error('nginx: a `}` closes no block');
        at += 1;
        return directives;
      }
      const words: string[] = [];
      while (at < tokens.length && tokens[at]!.word !== undefined) words.push(tokens[at++]!.word!);
      const end = tokens[at++]?.punctuation;
      if (words.length === 0) throw new Error(`nginx: a directive without a name before ${end ?? 'the end'}`);
      const [name, ...args] = words as [string, ...string[]];
      if (end === ';') directives.push({ name, args });
      else if (end === '{') directives.push({ name, args, block: parseBlock(true) });
      else throw new Error(`nginx: ${name} is not ended by ; or {`);
    }
    if (closing) throw new Error('nginx: a block is not closed');
    return directives;
  };
  return parseBlock(false);
}

export function readNginxExample(): NginxDirective[] {
  return parseNginx(fs.readFileSync(NGINX_EXAMPLE, 'utf8'));
}

/** The `server` block that listens on `port` (its first `listen` argument). */
export function serverListeningOn(config: readonly NginxDirective[], port: number): NginxDirective[] {
  const found = config.filter(
    ({ name, block }) =>
      name === 'server' && block?.some((child) => child.name === 'listen' && child.args[0] === String(port)),
  );
  if (found.length !== 1) throw new Error(`nginx: ${found.length} server blocks listen on ${port}`);
  return found[0]!.block!;
}

/** The arguments of the one `name` directive of this block itself (not of the blocks inside it), if it has one. */
export function directiveArgs(block: readonly NginxDirective[], name: string): string[] | undefined {
  const found = block.filter((directive) => directive.name === name);
  if (found.length > 1) throw new Error(`nginx: ${found.length} ${name} directives in one block`);
  return found[0]?.args;
}

/** An nginx time (`30s`, `2m`, `1h`, a bare number being seconds) in seconds. */
export function nginxSeconds(time: string): number {
  const match = /^(\d+)(s|m|h)?$/.exec(time);
  if (!match) throw new Error(`nginx: not a time in seconds, minutes or hours: ${time}`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
}
