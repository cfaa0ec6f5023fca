import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { probeErrors, probeProgram, PROBE_OPTIONS } from '../../testing/typescript-probe';

const ROOT_DIR = path.resolve(__dirname, '../..');
/** A file of server code that exists only in this test's compiler host. */
const PROBE_FILE = path.join(ROOT_DIR, 'server', 'slots', 'typed-slots-probe.ts');
const KNOWN_SLOT_COMPONENTS_FILE = path.join(ROOT_DIR, 'server', 'slots', 'generated', 'known-slot-components.ts');

/** Compiles `code` as a server file beside the generated declarations with tsc; returns its errors, by line. */
function compileErrors(code: string): Array<{ line: number; message: string }> {
  return probeErrors(
    probeProgram(PROBE_FILE, code, PROBE_OPTIONS, [PROBE_FILE, KNOWN_SLOT_COMPONENTS_FILE]),
    PROBE_FILE,
  );
}

describe('typed registrations (server code sees the generated declarations)', () => {
  it('is current: npm run remotes:types writes what is committed', () => {
    const output = execFileSync(
      path.join(ROOT_DIR, 'node_modules', '.bin', 'tsx'),
      [path.join(ROOT_DIR, 'scripts', 'remotes-types.ts'), '--check'],
      { cwd: ROOT_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(output).toContain('server/slots/generated/known-slot-components.ts is current.');
  });

  it('compiles a known component with the props of its schema, and untyped use of any name', () => {
    const errors = compileErrors(
      [
        "import { Slot } from '../../shared';",
        "Slot.make('LoginNotice', { title: 'Welcome', text: 'Sign in.' });",
        "Slot.make('Callout', { tone: 'info' }, 'content');",
        "Slot.make('TenantSwitcher');",
        "Slot.untyped('InvoiceBanner', { amountDue: 'lots' });",
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('fails tsc on an unknown component name, a prop of the wrong type, a missing prop and an unknown prop', () => {
    const errors = compileErrors(
      [
        "import { Slot } from '../../shared';",
        "Slot.make('LoginNotise', { title: 'Welcome', text: 'Sign in.' });",
        "Slot.make('ActivityTimeline', { limit: 'lots' });",
        "Slot.make('LoginNotice', { title: 'Welcome' });",
        "Slot.make('WelcomeCard', { title: 'Hi', titel: 'Hi' });",
        "Slot.make('SystemStatus', { status: 'fine', text: 'x' });",
        "Slot.make('ActivityTimeline');",
      ].join('\n'),
    );
    expect(errors.map((error) => error.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(errors[0]?.message).toContain('"LoginNotise"');
    expect(errors[1]?.message).toContain("Type 'string' is not assignable to type 'number'");
    expect(errors[2]?.message).toContain("Property 'text' is missing");
    expect(errors[3]?.message).toContain("'titel' does not exist");
  });
});
