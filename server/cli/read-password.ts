/**
 * Reads a password: from a terminal without echoing it (asked twice), or from stdin when it is piped (its first
 * line), so scripts can run `printf '%s\n' "$PASSWORD" | npm run user:add -- name`.
 */
export async function readPassword(prompt: string): Promise<string> {
  const input = process.stdin;
  if (input.isTTY) {
    const first = await promptHidden(prompt);
    const second = await promptHidden('Repeat the password: ');
    if (first !== second) throw new Error('The two passwords differ. Nothing was changed.');
    return first;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const text = Buffer.concat(chunks).toString('utf8');
  return text.split(/\r?\n/, 1)[0] ?? '';
}

export class PromptCancelledError extends Error {
  constructor() {
    super('Cancelled. Nothing was changed.');
    this.name = 'PromptCancelledError';
  }
}

/** One line from the terminal in raw mode, echoing nothing; the prompt goes to stderr so stdout stays clean. */
function promptHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  const output = process.stderr;
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n') {
          finish();
          resolve(value);
          return;
        }
        if (char === '\u0003' || (char === '\u0004' && value === '')) {
          finish();
          reject(new PromptCancelledError());
          return;
        }
        if (char === '\u007f' || char === '\b') {
          value = [...value].slice(0, -1).join('');
          continue;
        }
        // Other control characters (arrows, escape sequences) are not part of a password.
        if (char < ' ') continue;
        value += char;
      }
    };
    // Raw mode (no echo) before the prompt shows: whatever is typed once the prompt is visible stays hidden.
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
    output.write(prompt);
  });
}
