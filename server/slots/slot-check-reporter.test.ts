import { Writable } from 'node:stream';
import pino from 'pino';
import { Slot } from '../../shared';
import { CODE_SLOTS_SERVED, CODE_SLOTS_WAITING, SlotCheckReporter } from './slot-check-reporter';
import { placedSlots, SlotContract, SlotContractError, type ContractRemotes } from './slot-contract';

const REMOTES: ContractRemotes = {
  known: [{ name: 'team_billing', components: ['InvoiceBanner', 'InvoiceField'], formComponents: ['InvoiceField'] }],
  disabled: [],
  waiting: [{ name: 'team_down', reason: 'answered 404' }],
};

function reporterWithLog(mode: 'fail' | 'log'): {
  reporter: SlotCheckReporter;
  lines: Array<{ level: number; msg: string }>;
} {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { reporter: new SlotCheckReporter(pino({ level: 'info' }, sink), mode), lines };
}

function problemsOf(...slots: Slot[]) {
  return new SlotContract().check(placedSlots('resource-before-form', slots, 'code'), REMOTES);
}

describe('SlotCheckReporter', () => {
  it('starts with warnings and waiting slots, each logged once under its own heading', () => {
    const { reporter, lines } = reporterWithLog('fail');
    const problems = problemsOf(Slot.make('InvoiceField'), Slot.make('DownWidget'));
    reporter.atStart(problems);
    reporter.afterChange(() => problems);

    expect(lines.map((line) => line.msg.split('\n')[0])).toEqual([
      'Slots that may fail where they are placed:',
      'Slots checked again when their remote answers:',
    ]);
    expect(lines[0]!.msg).toContain('InvoiceField at resource-before-form[0]');
    expect(lines[1]!.msg).toContain('DownWidget at resource-before-form[1]');
  });

  it('lists the slots of a remote switched off apart: they wait for an operator, not for an answer', () => {
    const { reporter, lines } = reporterWithLog('fail');
    const problems = new SlotContract().check(
      placedSlots('resource-before-form', [Slot.make('OffWidget'), Slot.make('DownWidget')], 'code'),
      { ...REMOTES, disabled: [{ name: 'team_off', components: ['OffWidget'] }] },
    );
    reporter.atStart(problems);
    expect(lines.map((line) => line.msg.split('\n')[0])).toEqual([
      'Slots left out while their remote is switched off ("enabled": false in REMOTES_CONFIG):',
      'Slots checked again when their remote answers:',
    ]);
    expect(lines[0]!.msg).toContain('OffWidget at resource-before-form[0]');
    expect(lines[0]!.msg).not.toContain('DownWidget');
  });

  it('refuses the start on a blocking problem in mode fail, and only logs it in mode log', () => {
    const blocking = new SlotContract().check(placedSlots('resource-before-form', [Slot.make('Nobody')], 'code'), {
      ...REMOTES,
      waiting: [],
    });
    expect(() => reporterWithLog('fail').reporter.atStart(blocking)).toThrow(SlotContractError);

    const { reporter, lines } = reporterWithLog('log');
    reporter.atStart(blocking);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain('Nobody at resource-before-form[0] (code): no remote provides "Nobody"');
  });

  it('says at start what a misspelt name does while a remote is down, and says it again when the remote answers', () => {
    const { reporter, lines } = reporterWithLog('fail');
    const slot = Slot.untyped('InvoiceBaner', { amountDue: 1 });
    const check = (remotes: ContractRemotes) =>
      new SlotContract().check(placedSlots('header-banner', [slot], 'code'), remotes);
    // team_billing (which provides InvoiceBanner) down: the start cannot know, so it passes, and says so.
    const down = { ...REMOTES, known: [], waiting: [{ name: 'team_billing' }] };
    reporter.atStart(check(down));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(40);
    expect(lines[0]!.msg).toBe(
      'Slots checked again when their remote answers:\n' +
        '  - InvoiceBaner at header-banner[0] (code): no remote known now provides "InvoiceBaner" (not answering: ' +
        `team_billing)\n${CODE_SLOTS_WAITING}`,
    );
    // Another remote answering near the name: the likelier mistake is named at once.
    expect(check({ ...down, known: REMOTES.known }).map((p) => p.message)).toEqual([
      'no remote known now provides "InvoiceBaner" (not answering: team_billing); did you mean "InvoiceBanner" ' +
        '(remote "team_billing")?',
    ]);
    // It answers, without that name: an error, with the name it has and what becomes of the slot.
    reporter.afterChange(() => check({ ...REMOTES, waiting: [] }));
    expect(lines).toHaveLength(2);
    expect(lines[1]!.level).toBe(50);
    expect(lines[1]!.msg).toContain(
      'InvoiceBaner at header-banner[0] (code): no remote provides "InvoiceBaner"; did you mean "InvoiceBanner" ' +
        '(remote "team_billing")?',
    );
    expect(lines[1]!.msg).toContain(CODE_SLOTS_SERVED);
  });
});
