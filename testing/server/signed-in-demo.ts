import type request from 'supertest';
import type { RecordListPayload } from '../../shared';
import { signedInAgent, type DemoTestApp } from './test-app';

/** What useSignedInDemo gives each test: its app, an agent signed in as the demo's admin, and a list reader. */
export interface SignedInDemo {
  readonly host: DemoTestApp;
  readonly agent: request.Agent;
  /** `GET /api/resources/<resource>/records?<query>` as the agent, expected to answer 200. */
  list(query: string, resource?: string): Promise<RecordListPayload>;
}

/**
 * A demo app per test, opened by `open` (SQLite or PostgreSQL) before it and closed after it, with the demo's admin
 * signed in: the set-up of every suite that drives the records API on both engines.
 */
export function useSignedInDemo(open: () => Promise<DemoTestApp>): SignedInDemo {
  let host: DemoTestApp | undefined;
  let agent: request.Agent | undefined;

  beforeEach(async () => {
    host = await open();
    agent = await signedInAgent(host.app);
  });

  afterEach(() => host?.close());

  const demo: SignedInDemo = {
    get host() {
      if (!host) throw new Error('useSignedInDemo: use the app inside a test.');
      return host;
    },
    get agent() {
      if (!agent) throw new Error('useSignedInDemo: use the agent inside a test.');
      return agent;
    },
    list: async (query, resource = 'articles') => {
      const response = await demo.agent.get(`/api/resources/${resource}/records?${query}`);
      expect([query, response.status]).toEqual([query, 200]);
      return response.body as RecordListPayload;
    },
  };
  return demo;
}
