import { Slot, SlotLocation } from '../../shared';
import { placedConfiguredSlots, type ConfiguredSlot } from './configured-slots';
import { formatSlotProblem, SlotContract } from './slot-contract';

const AT = SlotLocation.tryFrom('dashboard-after-cards')!;

describe('placedConfiguredSlots', () => {
  it('numbers the slots per location and says who placed each: the file, or the placements editor', () => {
    const slots: ConfiguredSlot[] = [
      { remote: 'team_billing', location: AT, slot: Slot.make('InvoiceNote') },
      { remote: 'team_billing', location: AT, slot: Slot.make('InvoiceNote', { n: 2 }), source: 'placements' },
    ];
    const placed = placedConfiguredSlots(slots).flatMap(({ placed }) => placed);
    expect(placed.map(({ position, source }) => [position, source])).toEqual([
      ['[0]', 'configuration'],
      ['[1]', 'placements'],
    ]);
    // A problem of the editor's slot names the editor, not REMOTES_CONFIG, where a remote team would look for it.
    const problems = new SlotContract().check(placed, { known: [], disabled: [], waiting: [] });
    expect(problems.map(formatSlotProblem)[1]).toMatch(
      /^InvoiceNote at dashboard-after-cards\[1\] \(placements, remote "team_billing"\): /,
    );
  });
});
