/**
 * A placement rule in force naming a tenant removed since (tenant:remove keeps the rules that name it), through the
 * whole app over HTTP: it no longer blocks a publish of other changes (a warning, said with the rule), while a rule
 * being written (new, or changed) that names a tenant there is not is still refused.
 */
import { UNKNOWN_RULE_NAME, type MetaPayload, type PlacementsDraftPayload } from '../../shared';
import { startPlacedRemotesApp, type PlacedRemotesApp } from '../../testing/server/placed-remotes-app';
import { signedInOperator, type TestApp } from '../../testing/server/test-app';
import { removeTenant } from '../cli/tenant-removal';
import { PUBLISHED_RULE_NOTE } from './rule-names-check';

const LOCATION = 'dashboard-before-cards';

let placed: PlacedRemotesApp;
let testApp: TestApp;
let operator: Awaited<ReturnType<typeof signedInOperator>>;

beforeEach(async () => {
  placed = await startPlacedRemotesApp(LOCATION);
  testApp = placed.testApp;
  operator = await signedInOperator(testApp.app, 'ops', 'correct horse battery');
  await testApp.app.tenants.save({ id: 'initech', name: 'Initech' });
});
afterEach(() => placed.close());

/** The banner shown when `rule` holds (none: always), and the note at `notePriority`, with their own rules. */
function documentWith(
  rule: unknown,
  { notePriority = 50, title = 'Due', noteRule }: { notePriority?: number; title?: string; noteRule?: unknown } = {},
) {
  return {
    remotes: [
      {
        name: 'team_billing',
        slots: {
          [LOCATION]: [
            { component: 'InvoiceBanner', props: { title }, priority: 10, visibleWhen: rule },
            { component: 'InvoiceNote', priority: notePriority, visibleWhen: noteRule },
          ],
        },
      },
    ],
  };
}

async function saveDraft(document: unknown): Promise<PlacementsDraftPayload> {
  return (await operator.put('/api/placements/draft').send({ document }).expect(200)).body as PlacementsDraftPayload;
}

const RULE = { $any: [{ roles: ['operator'] }, { tenants: ['initech', 'acme'] }] };
const UNKNOWN = '"visibleWhen.$any[1].tenants" names the unknown tenant "initech"; tenants: acme.';

describe('a rule in force naming a tenant removed since', () => {
  beforeEach(async () => {
    await saveDraft(documentWith(RULE));
    await operator.post('/api/placements/publish').send({}).expect(201);
    // What `npm run tenant:remove -- initech` does: the rules naming it are kept.
    await removeTenant(testApp.app.storage, 'initech');
    expect(await testApp.app.tenants.get('initech')).toBeUndefined();
  });

  it('is a warning with the rule, and another change is published over it', async () => {
    const warning = {
      remote: 'team_billing',
      location: LOCATION,
      index: 0,
      component: 'InvoiceBanner',
      kind: UNKNOWN_RULE_NAME,
      path: null,
      message: `${UNKNOWN} ${PUBLISHED_RULE_NOTE}`,
      blocking: false,
    };
    // The draft is the revision in force until one is saved: the page says the warning, and no problem blocks.
    expect((await operator.get('/api/placements').expect(200)).body.problems).toEqual([warning]);

    // Another slot changed, and the banner's props: its rule is the one in force, unchanged.
    const edited = documentWith(RULE, { notePriority: 5, title: 'Overdue' });
    expect((await saveDraft(edited)).problems).toEqual([warning]);
    await operator.post('/api/placements/publish').send({}).expect(201);
    expect(await testApp.app.placements.store.lastNumber()).toBe(2);
    const meta = (await operator.get('/meta').expect(200)).body as MetaPayload;
    expect((meta.slots[LOCATION] ?? []).map((entry) => entry.component)).toEqual([
      'InvoiceNote',
      'InvoiceBanner',
      'Welcome',
    ]);

    // Still a warning against the new revision, which keeps the rule: a later publish is not blocked either.
    await saveDraft(documentWith(RULE, { notePriority: 60, title: 'Overdue' }));
    await operator.post('/api/placements/publish').send({}).expect(201);
  });

  it('refuses a rule being written that names it: a new rule, or the rule in force changed', async () => {
    const refused = async (document: unknown, message: string) => {
      const { problems } = await saveDraft(document);
      expect(problems).toEqual([expect.objectContaining({ kind: UNKNOWN_RULE_NAME, message, blocking: true })]);
      const response = await operator.post('/api/placements/publish').send({}).expect(400);
      expect(response.body.error.placementProblems).toEqual(problems);
      expect(await testApp.app.placements.store.lastNumber()).toBe(1);
    };
    // The note given a rule naming the removed tenant (the banner's rule taken out: its warning aside).
    await refused(
      documentWith(undefined, { noteRule: { tenants: ['initech'] } }),
      '"visibleWhen.tenants" names the unknown tenant "initech"; tenants: acme.',
    );
    // A typo in a new rule.
    await refused(
      documentWith(undefined, { noteRule: { tenants: ['acmee'] } }),
      '"visibleWhen.tenants" names the unknown tenant "acmee"; tenants: acme.',
    );
    // The rule in force, changed but still naming it.
    await refused(documentWith({ $any: [{ roles: ['editor'] }, { tenants: ['initech', 'acme'] }] }), UNKNOWN);
    // The same rule moved to another slot is a new rule there.
    await refused(documentWith(undefined, { noteRule: RULE }), UNKNOWN);

    // Taken out of the rule, the draft publishes without a problem.
    expect((await saveDraft(documentWith({ tenants: ['acme'] }))).problems).toEqual([]);
    await operator.post('/api/placements/publish').send({}).expect(201);
  });
});
