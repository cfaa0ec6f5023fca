import { createInterface } from 'node:readline/promises';

/** How a removal was confirmed, or why not. */
export type Confirmation = 'confirmed' | 'declined' | 'no-terminal';

/**
 * Asks `question` on the terminal (the answer echoed: nothing secret is typed) unless `yes` (`--yes`) says it is
 * confirmed already. Only "y" or "yes" confirms. Without a terminal nobody can answer: a script, a pipe, a `docker
 * exec` without -it. Such a run is refused rather than taken as yes, so a removal never happens unasked; the script
 * says `--yes` instead.
 */
export async function confirmRemoval(question: string, yes: boolean): Promise<Confirmation> {
  if (yes) return 'confirmed';
  if (!process.stdin.isTTY) return 'no-terminal';
  // The question on stderr, as read-password.ts does: stdout stays what the command did.
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise<Confirmation>((resolve) => {
    // Ctrl-C and Ctrl-D answer no, as anything but yes does.
    terminal.once('SIGINT', () => terminal.close());
    terminal.once('close', () => resolve('declined'));
    terminal.question(`${question} [y/N] `).then(
      (answer) => {
        resolve(/^\s*y(es)?\s*$/i.test(answer) ? 'confirmed' : 'declined');
        terminal.close();
      },
      () => resolve('declined'),
    );
  });
}

/** What a removal that was not confirmed says. */
export function notConfirmedMessage(confirmation: Exclude<Confirmation, 'confirmed'>, command: string): string {
  return confirmation === 'declined'
    ? 'Not removed: the answer was not yes. Nothing was changed.'
    : `Refused: there is no terminal to confirm on. Run it in a terminal to be asked, or add --yes ` +
        `(${command}) to remove without being asked. Nothing was changed.`;
}
