import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { startAppServer, type AppServer } from './app-server';
import { assertBuilt } from './build-output';
import { launchChromium } from './chromium';
import { recordPage, type PageLog } from './page-log';
import { ARTIFACTS_DIR } from './repo-root';

/** Desktop size: wide enough for the login sidebar (1024 px and wider). */
export const DESKTOP_VIEWPORT = Object.freeze({ width: 1280, height: 900 });

export const BROWSER_LOGS_DIR = path.join(ARTIFACTS_DIR, 'browser-logs');

export interface TrackedPage {
  page: Page;
  log: PageLog;
}

export interface BrowserSuite {
  readonly browser: Browser;
  /** The server of the current test (started in beforeEach). */
  readonly server: AppServer;
  /** Base URL of the current test's server. */
  readonly url: string;
  /** A new context (fresh cookies) and page on the current server, recording network and console. */
  newPage(options?: BrowserContextOptions): Promise<TrackedPage>;
}

export interface BrowserSuiteOptions {
  /**
   * Starts the server for each test; by default the real `server/main.ts` with a fresh database. Give your own to
   * use the fixture server, a second origin, or a special REMOTES_CONFIG.
   */
  startServer?: () => Promise<AppServer>;
  /**
   * Starts the next test's server while the current test runs, so no test waits for a server to start (about a
   * second each): on by default with the default server, and for a `startServer` that makes the same kind of server
   * every time (one that reads nothing a test sets). The last one made is stopped unused.
   */
  prestart?: boolean;
}

/**
 * Wires a browser test file: asserts the build exists and launches Chromium once (beforeAll), gives each test a fresh
 * server on a free port with a fresh database (beforeEach; started ahead, see `prestart`), gives each test new
 * contexts, and stops and deletes everything after. The server's output and each page's console and failed requests
 * go to `artifacts/browser-logs/<test>.log` for diagnosis.
 */
export function useBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  const startServer = options.startServer ?? (() => startAppServer());
  const prestart = options.prestart ?? options.startServer === undefined;
  let browser: Browser | undefined;
  let server: AppServer | undefined;
  let nextServer: Promise<AppServer> | undefined;
  let contexts: BrowserContext[] = [];
  let pages: TrackedPage[] = [];

  beforeAll(async () => {
    assertBuilt();
    browser = await launchChromium();
  });

  afterAll(async () => {
    const unused = nextServer;
    nextServer = undefined;
    await unused?.then(
      (spare) => spare.stop(),
      () => undefined,
    );
    await browser?.close();
  });

  beforeEach(async () => {
    const started = nextServer;
    nextServer = undefined;
    // A server started ahead that failed is started again here, so a failure to start is reported by this test.
    server = await (started?.catch(() => startServer()) ?? startServer());
    if (prestart) {
      nextServer = startServer();
      // Awaited by the next test or by afterAll; until then its failure is not an unhandled rejection.
      nextServer.catch(() => undefined);
    }
  });

  afterEach(async () => {
    await writeTestLog(server, pages);
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    contexts = [];
    pages = [];
    await server?.stop();
    server = undefined;
  });

  return {
    get browser() {
      if (!browser) throw new Error('The browser is not running: use the suite inside a test.');
      return browser;
    },
    get server() {
      if (!server) throw new Error('No server is running: use the suite inside a test.');
      return server;
    },
    get url() {
      return this.server.url;
    },
    async newPage(contextOptions = {}) {
      const context = await this.browser.newContext({
        viewport: DESKTOP_VIEWPORT,
        baseURL: this.server.url,
        ...contextOptions,
      });
      contexts.push(context);
      const page = await context.newPage();
      const tracked = { page, log: recordPage(page) };
      pages.push(tracked);
      return tracked;
    },
  };
}

async function writeTestLog(server: AppServer | undefined, pages: readonly TrackedPage[]): Promise<void> {
  const name = (expect.getState().currentTestName ?? 'unnamed').replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 120);
  const sections: string[] = [];
  if (server) {
    sections.push(
      `# server ${server.url}\n## stdout\n${server.process.stdout()}\n## stderr\n${server.process.stderr()}`,
    );
  }
  pages.forEach(({ log }, index) => {
    const consoleLines = log.console.map((message) => `[${message.type}] ${message.text}`).join('\n');
    const requests = log.requests.map((request) => `${request.method} ${request.url}`).join('\n');
    sections.push(
      `# page ${index + 1}\n## console\n${consoleLines}\n## page errors\n${log.pageErrors.join('\n')}\n## requests\n${requests}`,
    );
  });
  await mkdir(BROWSER_LOGS_DIR, { recursive: true });
  await writeFile(path.join(BROWSER_LOGS_DIR, `${name}.log`), `${sections.join('\n\n')}\n`);
}
