import '../../../testing/host/router-globals';
import { screen } from '@testing-library/react';
import {
  API_CLIENT_MESSAGES,
  SLOT_INSPECTOR_PATH,
  type InspectedRemote,
  type InspectedSlot,
  type MePayload,
  type SlotInspectionPayload,
} from '../../../shared';
import { createFakeApi, proxyPage, type FakeResponse } from '../../../testing/host/fake-api';
import { renderAppAt } from '../../../testing/host/render-app';

const ME: MePayload = {
  user: {
    username: 'admin',
    displayName: 'Demo administrator',
    tenants: [{ id: 'acme', name: 'Acme Corp' }],
    currentTenant: 'acme',
    roles: [],
  },
};

function remote(name: string, status: InspectedRemote['status'], reason?: string): InspectedRemote {
  return {
    name,
    entry: `https://${name}.example`,
    status,
    ...(reason === undefined ? {} : { reason }),
    components: [],
    formComponents: [],
    schemaComponents: [],
  };
}

const INSPECTION: SlotInspectionPayload = {
  locations: {},
  forms: {},
  remotes: [
    remote('team_up', 'answered'),
    remote('team_down', 'down', 'https://team_down.example/…: connect ECONNREFUSED 10.0.0.9:443'),
    remote('team_slow', 'timed-out', 'https://team_slow.example/… did not answer within 3000 ms'),
    remote('team_bad', 'bad-answer', 'https://team_bad.example/… answered 404'),
    remote('team_kept', 'released'),
    { ...remote('team_gone', 'down', 'https://cdn.example/…: connect ECONNREFUSED 10.0.0.7:443'), release: '2.0.0' },
  ],
};

function renderInspector(inspection: FakeResponse = { body: INSPECTION }) {
  const fake = createFakeApi({
    'GET /me': { body: ME },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/slots/inspect': inspection,
  });
  return renderAppAt(fake, SLOT_INSPECTOR_PATH);
}

async function statusOf(name: string): Promise<string> {
  await screen.findByRole('region', { name: /Every remote/ });
  const row = document.querySelector(`tr[data-inspected-remote="${name}"] [data-remote-status]`);
  return row?.textContent ?? '';
}

describe('the slot inspector’s remotes', () => {
  it('says what the last request for each descriptor came to: a timeout is "timed out", never "remote down"', async () => {
    renderInspector();
    expect(await statusOf('team_up')).toBe('answered');
    expect(await statusOf('team_down')).toBe(
      'remote down: https://team_down.example/…: connect ECONNREFUSED 10.0.0.9:443',
    );
    const slow = await statusOf('team_slow');
    expect(slow).toBe('timed out: https://team_slow.example/… did not answer within 3000 ms');
    expect(slow).not.toContain('down');
    expect(await statusOf('team_bad')).toBe(
      'answered without a usable descriptor: https://team_bad.example/… answered 404',
    );
    expect(await statusOf('team_kept')).toBe('served from its release (origin not asked yet)');
    // Served from its release, whose origin stopped answering.
    expect(await statusOf('team_gone')).toBe(
      'remote down (release 2.0.0): https://cdn.example/…: connect ECONNREFUSED 10.0.0.7:443',
    );
  });
});

describe('the slot inspector’s server answer', () => {
  it('says it could not be read when it is a page, not JSON (a proxy’s), and still shows what this tab saw', async () => {
    renderInspector(proxyPage());
    expect((await screen.findByRole('alert')).textContent).toContain(API_CLIENT_MESSAGES.unreadable);
    expect(screen.getByRole('heading', { name: 'Slot inspector', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('region', { name: /Every remote/ })).toBeNull();
  });
});

describe('the slot inspector’s problems of a slot', () => {
  const slot = (component: string, more: Partial<InspectedSlot>): InspectedSlot => ({
    component,
    props: null,
    remote: 'team_up',
    source: 'code',
    visibility: 'protected',
    problems: [],
    ...more,
  });
  const hidden = 'hidden from you by its rule: shown only for role operator';

  async function problemsOf(component: string): Promise<string> {
    await screen.findByRole('region', { name: /Every slot of every location/ });
    return document.querySelector(`tr[data-inspected-slot="${component}"] [data-slot-problems]`)?.textContent ?? '';
  }

  it('says None for a served slot, only its rule for one hidden by it, and any problem after the rule', async () => {
    renderInspector({
      body: {
        ...INSPECTION,
        locations: {
          'header-banner': [
            slot('Served', {}),
            slot('Hidden', { hiddenByRule: hidden }),
            slot('HiddenAndBroken', { hiddenByRule: hidden, problems: ['props.title must be string'] }),
            slot('Broken', { problems: ['no remote provides "Broken"', 'props.x must be number'] }),
          ],
        },
      },
    });
    expect(await problemsOf('Served')).toBe('None');
    expect(await problemsOf('Hidden')).toBe(hidden);
    expect(await problemsOf('HiddenAndBroken')).toBe(`${hidden}; props.title must be string`);
    expect(await problemsOf('Broken')).toBe('no remote provides "Broken"; props.x must be number');
  });

  it('tells two slots of one component apart by their ids, and shows the props the asker’s pages get', async () => {
    renderInspector({
      body: {
        ...INSPECTION,
        locations: {
          'dashboard-after-cards': [
            slot('RelatedHint', { id: 'RelatedHint', props: { title: 'First' } }),
            slot('RelatedHint', { id: 'RelatedHint#2', props: {} }),
            slot('Hidden', { id: 'Hidden', hiddenByRule: hidden }),
          ],
        },
      },
    });
    await screen.findByRole('region', { name: /Every slot of every location/ });
    const rows = [...document.querySelectorAll('tr[data-inspected-slot]')];
    // The component's cell holds its remote too, on a line of its own.
    const component = (row: Element) => {
      const cell = row.children[1]!.cloneNode(true) as Element;
      cell.querySelector('[data-slot-remote]')?.remove();
      return cell.textContent;
    };
    expect(rows.map((row) => [component(row), row.lastElementChild?.textContent])).toEqual([
      ['RelatedHint', `Props${JSON.stringify({ title: 'First' }, null, 2)}`],
      ['RelatedHint (id RelatedHint#2)', 'none'],
      ['Hidden', 'not shown'],
    ]);
    expect(rows.map((row) => row.querySelector('[data-slot-remote]')?.textContent)).toEqual(
      rows.map(() => expect.stringMatching(/\S/)),
    );
  });
});
