import { nearName } from './near-name';

describe('nearName', () => {
  const known = ['InvoiceBanner', 'InvoiceField', 'MaintenanceNotice', 'Card'];

  it('finds a name one or two edits away, or in other case', () => {
    expect(nearName('InvoiceBaner', known)).toBe('InvoiceBanner');
    expect(nearName('MaintenanceNotise', known)).toBe('MaintenanceNotice');
    expect(nearName('InvocieField', known)).toBe('InvoiceField');
    expect(nearName('invoicebanner', known)).toBe('InvoiceBanner');
  });

  it('suggests nothing for a name far from every known one, or too short to guess', () => {
    expect(nearName('OpsNotice', known)).toBeUndefined();
    expect(nearName('Cat', known)).toBeUndefined();
    expect(nearName('InvoiceBanner', known)).toBeUndefined();
  });
});
