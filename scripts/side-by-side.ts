/**
 * Runs npm scripts at once, each one's output printed whole under its name when it ends; fails when any fails, after
 * all have ended. `npm test` runs `lint` and `build` so: neither writes what the other reads (the build's one file in
 * the sources, server/slots/generated/known-slot-components.ts, is rewritten only when it changes), and on two cores
 * the build's minute then passes during the type check instead of after it.
 *
 *   tsx scripts/side-by-side.ts lint build
 */
import path from 'node:path';
import { runAndReport } from './lint';

if (require.main === module) {
  const scripts = process.argv.slice(2);
  const steps = scripts.map((name) => ({ name, command: 'npm', args: ['run', '--silent', name] }));
  void runAndReport(steps, 'side by side', path.resolve(__dirname, '..')).then((code) => (process.exitCode = code));
}
