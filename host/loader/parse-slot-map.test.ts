import { parseSlotMap } from './parse-slot-map';

describe('parseSlotMap', () => {
  it('keeps known locations in order, with props and content', () => {
    const { slots, problems } = parseSlotMap({
      'login-before-form': [
        { component: 'LoginNotice', props: { title: 'Hi', text: 'Welcome' } },
        { component: 'Callout', props: { tone: 'info' }, content: 'Text' },
      ],
      'dashboard-before-cards': [
        {
          component: 'Callout',
          props: { tone: 'success' },
          content: { component: 'WelcomeCard', props: { title: 'T' } },
        },
      ],
    });
    expect(problems).toEqual([]);
    expect(slots['login-before-form']?.map((entry) => entry.component)).toEqual(['LoginNotice', 'Callout']);
    expect(slots['login-before-form']?.[1]?.content).toBe('Text');
    expect(slots['dashboard-before-cards']?.[0]?.content).toEqual({ component: 'WelcomeCard', props: { title: 'T' } });
  });

  it('drops what it cannot render and says why, without failing the rest', () => {
    const { slots, problems } = parseSlotMap({
      'no-such-location': [{ component: 'X', props: {} }],
      'header-banner': 'not a list',
      'global-before-content': [
        { component: '', props: {} },
        { component: 'SystemStatus', props: ['bad'] },
        { component: 'Ok', props: null },
        { component: 'BadContent', props: {}, content: [{ nope: true }] },
      ],
    });
    expect(Object.keys(slots)).toEqual(['global-before-content']);
    expect(slots['global-before-content']).toEqual([{ component: 'Ok', props: {} }]);
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/unknown location "no-such-location"/);
  });

  it('treats a missing or malformed slots object as no slots', () => {
    expect(parseSlotMap(undefined)).toEqual({ slots: {}, problems: ['`slots` is not an object'] });
    expect(parseSlotMap([]).slots).toEqual({});
  });
});
