import { forgetDraft, forgetDraftsExcept, keepDraft, readDraft, type DraftOwner } from './record-draft';

const admin: DraftOwner = { username: 'admin', tenant: 'acme', resource: 'articles', id: 3 };
const other: DraftOwner = { username: 'editor', tenant: 'acme', resource: 'articles', id: 3 };

afterEach(() => sessionStorage.clear());

describe('record drafts', () => {
  it('are offered back only to the same user, tenant and record', () => {
    keepDraft(admin, { title: 'Unsaved title', published: true });
    expect(readDraft(admin)).toEqual({ title: 'Unsaved title', published: true });
    expect(readDraft(other)).toBeNull();
    expect(readDraft({ ...admin, tenant: 'globex' })).toBeNull();
    expect(readDraft({ ...admin, id: 4 })).toBeNull();
    expect(readDraft({ ...admin, resource: 'authors' })).toBeNull();
    forgetDraft(admin);
    expect(readDraft(admin)).toBeNull();
  });

  it('forgets everyone else’s drafts when someone signs in, and all of them on sign-out', () => {
    keepDraft(admin, { title: 'a' });
    keepDraft({ ...admin, id: 4 }, { title: 'b' });
    keepDraft(other, { title: 'c' });
    // A user whose name starts like another's is someone else.
    keepDraft({ ...admin, username: 'admin2' }, { title: 'd' });
    sessionStorage.setItem('unrelated', 'kept');

    forgetDraftsExcept('admin');
    expect([readDraft(admin), readDraft({ ...admin, id: 4 }), readDraft(other)]).toEqual([
      { title: 'a' },
      { title: 'b' },
      null,
    ]);
    expect(readDraft({ ...admin, username: 'admin2' })).toBeNull();

    forgetDraftsExcept(null);
    expect(readDraft(admin)).toBeNull();
    expect(sessionStorage.getItem('unrelated')).toBe('kept');
  });

  it('ignores what is not a draft', () => {
    sessionStorage.setItem(`slots:record-draft:${JSON.stringify(['admin', 'acme', 'articles', 3])}`, '[1,2]');
    expect(readDraft(admin)).toBeNull();
  });
});
