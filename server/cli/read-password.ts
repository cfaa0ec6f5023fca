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
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  // Nothing piped (`docker exec` without -i gives an empty stdin): said as such, not as a password too short.
  if (line === '') throw new NoPasswordGivenError();
  return line;
}

export class NoPasswordGivenError extends Error {
  constructor() {
    super(
      'No password came on stdin: pipe one (printf \'%s\\n\' "$PASSWORD" | ...), or run the command in a terminal ' +
        '(docker exec -it, kubectl exec -it) to be asked for it. Nothing was changed.',
    );
    this.name = 'NoPasswordGivenError';
  }
}

/** What was typed after the line a prompt took (typed ahead, or pasted with both lines): the next prompt's start. */
let typedAhead = '';

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
      const chars = [...chunk.toString()];
      for (const [index, char] of chars.entries()) {
        if (char === '\r' || char === '\n') {
          finish();
          // "\r\n" is one end of line; what follows it belongs to the next prompt.
          const rest = chars.slice(index + 1);
          if (char === '\r' && rest[0] === '\n') rest.shift();
          typedAhead = rest.join('');
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
    if (typedAhead !== '') {
      const ahead = typedAhead;
      typedAhead = '';
      onData(ahead);
    }
  });
}
