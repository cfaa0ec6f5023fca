import { forgetDraftsExcept, keepTabDraft, readTabDraft } from '../hooks/tab-drafts';
import { forgetDraft, keepDraft, readDraft, type DraftOwner } from './record-draft';

const admin: DraftOwner = { username: 'admin', tenant: 'acme', resource: 'articles', id: 3 };
const other: DraftOwner = { username: 'editor', tenant: 'acme', resource: 'articles', id: 3 };

afterEach(() => sessionStorage.clear());

const draftOf = (title: string) => ({ changes: { title }, base: { title: 'Title' } });

describe('record drafts', () => {
  it('are offered back only to the same user, tenant and record', () => {
    const draft = { changes: { title: 'Unsaved title', published: true }, base: { title: 'Title', published: false } };
    keepDraft(admin, draft);
    expect(readDraft(admin)).toEqual(draft);
    expect(readDraft(other)).toBeNull();
    expect(readDraft({ ...admin, tenant: 'globex' })).toBeNull();
    expect(readDraft({ ...admin, id: 4 })).toBeNull();
    expect(readDraft({ ...admin, resource: 'authors' })).toBeNull();
    forgetDraft(admin);
    expect(readDraft(admin)).toBeNull();
  });

  it('keep the key of a create whose answer was lost, and nothing but a key and its values', () => {
    const owner = { ...admin, id: 0 };
    const creation = { sent: '{"title":"New"}', key: '0123456789abcdef0123456789abcdef' };
    keepDraft(owner, { ...draftOf('New'), creation });
    expect(readDraft(owner)).toEqual({ ...draftOf('New'), creation });
    // Something else stored in its place (an older tab's draft, a hand edit): the values, without a key.
    keepTabDraft(['admin', 'record', 'acme', 'articles', 0], { ...draftOf('New'), creation: { key: 7 } });
    expect(readDraft(owner)).toEqual(draftOf('New'));
  });

  it('forgets everyone else’s drafts when someone signs in, and all of them on sign-out', () => {
    keepDraft(admin, draftOf('a'));
    keepDraft({ ...admin, id: 4 }, draftOf('b'));
    keepDraft(other, draftOf('c'));
    // A user whose name starts like another's is someone else.
    keepDraft({ ...admin, username: 'admin2' }, draftOf('d'));
    sessionStorage.setItem('unrelated', 'kept');
    // The placements editor's work is kept by the same rule.
    keepTabDraft(['admin', 'placements'], { document: {} });
    keepTabDraft(['editor', 'placements'], { document: {} });

    forgetDraftsExcept('admin');
    expect(readTabDraft(['admin', 'placements'])).toEqual({ document: {} });
    expect(readTabDraft(['editor', 'placements'])).toBeUndefined();
    expect([readDraft(admin), readDraft({ ...admin, id: 4 }), readDraft(other)]).toEqual([
      draftOf('a'),
      draftOf('b'),
      null,
    ]);
    expect(readDraft({ ...admin, username: 'admin2' })).toBeNull();

    forgetDraftsExcept(null);
    expect(readDraft(admin)).toBeNull();
    expect(readTabDraft(['admin', 'placements'])).toBeUndefined();
    expect(sessionStorage.getItem('unrelated')).toBe('kept');
  });

  it('ignores what is not a draft, such as the values alone an earlier version kept', () => {
    const key = `slots:draft:${JSON.stringify(['admin', 'record', 'acme', 'articles', 3])}`;
    sessionStorage.setItem(key, '[1,2]');
    expect(readDraft(admin)).toBeNull();
    sessionStorage.setItem(key, JSON.stringify({ title: 'Unsaved title' }));
    expect(readDraft(admin)).toBeNull();
  });
});
