import { OPERATOR_ROLE, VIEWER_ROLE } from '../../shared';
import { addDemoMember } from '../../testing/server/demo-member';
import { createDemoApp } from '../../testing/server/test-app';
import { printedUrl, runServerEntry } from '../../testing/server/server-entry-run';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { changeAccount } from '../auth/account-change';
import { removeTenant } from '../cli/tenant-removal';

jest.setTimeout(90_000);

describe('the demo entry’s start', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir('slots-with-demo-');
  });

  afterEach(() => {
    dir.remove();
  });

  it('warns in its log of a removed demo tenant it leaves out, nobody being able to administer with it', async () => {
    // Ann administers as the operator of both tenants by her memberships' roles alone, admin is disabled, and globex
    // is removed: made again, it would leave nobody able to administer (seed-demo-data.test.ts).
    const prepared = await createDemoApp({ dir });
    const engine = prepared.app.storage;
    await addDemoMember(engine, { role: VIEWER_ROLE, tenantRole: OPERATOR_ROLE });
    await changeAccount(engine, 'admin', { disabled: true });
    await removeTenant(engine, 'globex', { withData: true });
    await prepared.close({ keepData: true });

    // The demo entry as `npm run serve` runs it.
    const started = runServerEntry('server/main.ts', {
      SESSION_SECRET: '',
      DEMO_PASSWORD: '',
      DATABASE_PATH: prepared.databasePath,
    });
    try {
      await printedUrl(started);
      const warnings = started
        .logLines<{ level: number; msg: string }>()
        .filter((entry) => entry.level === 40 && entry.msg.startsWith('The demo tenant'));
      expect(warnings.map((entry) => entry.msg)).toEqual([
        expect.stringMatching(
          /^The demo tenant "globex" is missing and was not made again: "ann" is the last account able to use /,
        ),
      ]);
    } finally {
      // As soon as the address is printed, as a supervisor may: the signal handlers are set before it is.
      started.kill('SIGTERM');
      expect({ code: await started.exited, output: started.output() }).toEqual({ code: 0, output: started.output() });
    }
  });
});
