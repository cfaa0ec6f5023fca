import { guidePages, packagedPage } from './kit-guide';

describe("the remote teams' guide as the kit's package carries it", () => {
  it('is the guide and the pages of docs/ it links to', () => {
    const pages = guidePages();
    expect(pages[0]).toBe('docs/remote-teams.md');
    expect(pages).toEqual(expect.arrayContaining(['docs/reference/locations.md', 'docs/operators/remotes-config.md']));
    expect(pages.every((page) => page.startsWith('docs/') && page.endsWith('.md'))).toBe(true);
  });

  it('keeps the links between pages it carries, and gives the others as the repository path of their file', () => {
    const page = [
      '# Security',
      '',
      'See [the guide](../remote-teams.md#styles), [releases](releases.md#rules) and',
      '[`shared/staff-roles.ts`](../../shared/staff-roles.ts), [`tracing-sdk.ts`](../../server/tracing-sdk.ts),',
      '[the spec](https://example.com/spec.md), [below](#input-limits), `[not a link](releases.md)`.',
      // A link and a code span go on over a line's end.
      'Held [their',
      'notes](../../bench/notes.md#held), `max-age,',
      'immutable` ([`files.ts`](../../server/files.ts)).',
      '',
      '## Roles ([releases](releases.md))',
      '',
      '```md',
      '[in a block](releases.md)',
      '```',
    ].join('\n');
    const carried = new Set(['docs/remote-teams.md', 'docs/operators/security.md']);
    expect(packagedPage('docs/operators/security.md', page, carried, '1.2.3').split('\n')).toEqual([
      '# Security',
      '',
      "> From the product's repository (`docs/operators/security.md`), as the remote kit 1.2.3's package carries " +
        'it: a file named by its path that the package does not carry is in that repository.',
      '',
      'See [the guide](../remote-teams.md#styles), releases (`docs/operators/releases.md`) and',
      '`shared/staff-roles.ts`, `server/tracing-sdk.ts`,',
      '[the spec](https://example.com/spec.md), [below](#input-limits), `[not a link](releases.md)`.',
      'Held their',
      'notes (`bench/notes.md`), `max-age,',
      'immutable` (`server/files.ts`).',
      '',
      // A heading's anchor is made of its text: the text alone, so links to `#roles-releases` still work.
      '## Roles (releases)',
      '',
      '```md',
      '[in a block](releases.md)',
      '```',
    ]);
  });
});
