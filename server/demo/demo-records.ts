import type { JsonObject, Tenant } from '../../shared';

export interface DemoAuthor extends JsonObject {
  title: string;
  label: string;
  group: 'staff' | 'guest';
  email: string;
}

export interface DemoArticle extends JsonObject {
  title: string;
  slug: string;
  label: string;
  body: string;
}

export interface DemoTenantData {
  tenant: Tenant;
  authors: DemoAuthor[];
  /** `author` names an author of the same tenant by title. */
  /** `published`: the day it went out (`YYYY-MM-DD`), none for a draft. */
  articles: Array<{
    article: DemoArticle & { group?: string; published?: string; featured?: boolean };
    author?: string;
  }>;
}

/** Two tenants with different records, so tenant scoping is visible in the admin. */
export const DEMO_TENANTS: readonly DemoTenantData[] = [
  {
    tenant: { id: 'acme', name: 'Acme Corp' },
    authors: [
      { title: 'Ada Lovelace', label: 'Staff writer', group: 'staff', email: 'ada@acme.example' },
      { title: 'Grace Hopper', label: 'Technical editor', group: 'staff', email: 'grace@acme.example' },
      { title: 'Alan Turing', label: 'Guest columnist', group: 'guest', email: 'alan@guest.example' },
    ],
    articles: [
      {
        article: {
          title: 'Launching the spring catalogue',
          slug: 'launching-the-spring-catalogue',
          label: 'Spring launch',
          published: '2025-03-20',
          featured: true,
          group: 'news',
          body: 'Our spring catalogue is out, with forty new products across every range.',
        },
        author: 'Ada Lovelace',
      },
      {
        article: {
          title: 'How to write a good headline',
          slug: 'how-to-write-a-good-headline',
          label: 'Headline guide',
          published: '2023-06-14',
          featured: false,
          group: 'guides',
          body: 'Lead with the news, keep it under seventy characters, and avoid puns nobody gets.',
        },
        author: 'Grace Hopper',
      },
      {
        article: {
          title: 'Why we moved to weekly releases',
          slug: 'why-we-moved-to-weekly-releases',
          label: 'Release cadence',
          published: '2024-11-02',
          group: 'opinion',
          body: 'Smaller releases, fewer surprises: a year of shipping every week.',
        },
        author: 'Ada Lovelace',
      },
      {
        article: {
          title: 'Office relocation',
          slug: '',
          label: 'Draft',
          body: 'Notes for the move to the new building.',
        },
      },
    ],
  },
  {
    tenant: { id: 'globex', name: 'Globex' },
    authors: [
      { title: 'Hank Scorpio', label: 'Chief executive', group: 'staff', email: 'hank@globex.example' },
      { title: 'Frank Grimes', label: 'Contributor', group: 'guest', email: 'frank@guest.example' },
    ],
    articles: [
      {
        article: {
          title: 'Globex quarterly results',
          slug: 'globex-quarterly-results',
          label: 'Q3 results',
          published: '2024-10-15',
          featured: true,
          group: 'news',
          body: 'Revenue up twelve per cent, driven by the hammock division.',
        },
        author: 'Hank Scorpio',
      },
      {
        article: {
          title: 'Volcano lair safety guide',
          slug: 'volcano-lair-safety-guide',
          label: 'Safety guide',
          published: '2022-08-09',
          group: 'guides',
          body: 'Hard hats on the lower levels at all times.',
        },
        author: 'Hank Scorpio',
      },
      {
        article: {
          title: 'A fresh look at the employee handbook',
          slug: 'a-fresh-look-at-the-employee-handbook',
          label: 'Handbook review',
          published: '2025-01-27',
          featured: false,
          group: 'opinion',
          body: 'Chapter four needs rewriting.',
        },
        author: 'Frank Grimes',
      },
    ],
  },
];
