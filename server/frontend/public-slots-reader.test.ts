import { createPublicSlotsReader } from './public-slots-reader';

describe('createPublicSlotsReader', () => {
  it('parses the GET /slots body once per distinct text', () => {
    let text = JSON.stringify({ slots: { 'header-banner': [{ component: 'MaintenanceNotice', props: {} }] } });
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const read = createPublicSlotsReader(() => text);
      const first = read();
      expect(first).toEqual({ 'header-banner': [{ component: 'MaintenanceNotice', props: {} }] });
      expect(read()).toBe(first);
      expect(parse).toHaveBeenCalledTimes(1);

      text = JSON.stringify({ slots: {} });
      expect(read()).toEqual({});
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });

  it('reads anything unusable as no slots', () => {
    for (const text of ['not json', 'null', '[]', '{"slots":[]}', '{"slots":"x"}', '{}']) {
      expect(createPublicSlotsReader(() => text)()).toEqual({});
    }
  });
});
