import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../testing/temp-dir';
import { checkImportBoundaries, findImports, formatViolation } from './import-boundaries';

/** A tree that keeps every rule: each layer imports itself, shared/ and what it may of packages. */
const CLEAN_TREE: Record<string, string> = {
  'shared/index.ts': "export * from './slot';\n",
  'shared/slot.ts': 'export const SLOT = 1;\n',
  'shared/slot.test.ts': "import { readFileSync } from 'node:fs';\nimport '../server/app';\n",
  'server/app.ts':
    "import express from 'express';\nimport { readFileSync } from 'node:fs';\nimport { SLOT } from '../shared';\n",
  'server/test-support/test-app.ts': "import '../app';\nimport '../../host/index';\n",
  'server/app.test.ts': "import '../tests/support/anything';\nimport '../host/core/slot-item';\n",
  'host/index.ts':
    "import './styles.css';\nimport { startHost } from './startup/start-host';\nvoid import('./bootstrap');\n",
  'host/bootstrap.tsx':
    "import { createRoot } from 'react-dom/client';\nimport { SlotItem } from './core/slot-item';\n",
  'host/core/slot-item.tsx': "import { useState } from 'react';\nimport { SLOT } from '../../shared';\n",
  'host/startup/start-host.ts':
    "import { createApiClient } from '../loader/api-client';\n" +
    "import type { SlotMap } from '../../shared';\n" +
    "export const fallback = () => import('../core/fallback-module');\n",
  'host/loader/api-client.ts': "import { ApiError } from '../../shared';\n",
  'remotes/kit/define-remote.ts': "import type { RemoteDescriptorFile } from '../../shared';\n",
  'remotes/kit/webpack.ts':
    "import path from 'node:path';\nimport { BuildPathPlugin } from '../../build/build-path-plugin';\nimport './define-remote';\n",
  'remotes/common/safe-href.ts': 'export const safeHref = (href: string) => href;\n',
  'remotes/records/remote.ts': "import { defineRemote } from '../kit';\n",
  'remotes/records/components/Note.tsx':
    "import { useState } from 'react';\nimport { safeHref } from '../../common/safe-href';\nimport { requestJson } from '../http';\n",
  'remotes/records/components/Note.test.tsx': "import '../../../host/core/slot-item';\n",
  'build/remote-descriptor-plugin.ts':
    "import type { Compiler } from 'webpack';\nimport path from 'node:path';\nimport { REMOTE_DESCRIPTOR_FILE } from '../shared';\n",
  'tests/browser/sign-in.test.ts': "import '../../server/app';\nimport '../../host/core/slot-item';\n",
  'bench/run.ts': "import '../server/app';\n",
};

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

describe('checkImportBoundaries', () => {
  let dir: TempDir;

  beforeEach(async () => {
    dir = makeTempDir('import-boundaries-');
  });

  afterEach(async () => {
    dir.remove();
  });

  // These tests are about each folder's import rules: the folder order and circles are folder-order.test.ts's.
  const NO_ORDER = { orders: [] };

  async function violationsOf(extra: Record<string, string>): Promise<string[]> {
    await writeTree(dir.path, { ...CLEAN_TREE, ...extra });
    const report = await checkImportBoundaries(dir.path, NO_ORDER);
    return report.violations.filter((violation) => violation.kind === 'boundary').map(formatViolation);
  }

  it('passes a tree that keeps every rule, checking only product files', async () => {
    await writeTree(dir.path, CLEAN_TREE);
    const report = await checkImportBoundaries(dir.path, NO_ORDER);
    expect(report.violations).toEqual([]);
    // Tests, test support, tests/ and bench/ are not product files.
    expect(report.checkedFiles).toBe(14);
  });

  it('keeps shared/ free of every other folder and of packages', async () => {
    const violations = await violationsOf({
      'shared/slot.ts': "import '../server/app';\nimport { z } from 'zod';\nimport { inspect } from 'node:util';\n",
    });
    expect(violations).toEqual([
      'shared/slot.ts:1: imports "../server/app": shared/ is the contract of browser and server code alike: it imports only shared/, no package.',
      'shared/slot.ts:2: imports "zod": shared/ is the contract of browser and server code alike: it imports only shared/, no package.',
      'shared/slot.ts:3: imports "node:util": shared/ is the contract of browser and server code alike: it imports only shared/, no package.',
    ]);
  });

  it('finds a server file importing the host, through export-from, require and a type-only import', async () => {
    const violations = await violationsOf({
      'server/page.ts':
        "export { SIGN_IN_PATH } from '../host/startup/start-host';\n" +
        "const remote = require('../remotes/records/remote');\n" +
        "import type { Budget } from '../build/bundle-budgets';\n",
    });
    expect(violations).toEqual([
      'server/page.ts:1: imports "../host/startup/start-host": server/ imports only server/, shared/ and packages.',
      'server/page.ts:2: imports "../remotes/records/remote": server/ imports only server/, shared/ and packages.',
      'server/page.ts:3: imports "../build/bundle-budgets": server/ imports only server/, shared/ and packages.',
    ]);
  });

  it('keeps React out of host/startup/ and host/loader/, except behind a dynamic import', async () => {
    const violations = await violationsOf({
      'host/startup/start-host.ts':
        "import { createElement } from 'react';\n" +
        "import { SlotItem } from '../core/slot-item';\n" +
        "export const page = () => import('../pages/login-page');\n" +
        "import { useApi } from '../hooks/use-api';\n",
      'host/loader/fallback.tsx': 'export const Fallback = () => <p>unavailable</p>;\n',
    });
    expect(violations).toEqual([
      'host/loader/fallback.tsx:1: imports "react/jsx-runtime": host/loader/ runs before the async boundary: no .tsx file there, its JSX would import React.',
      'host/startup/start-host.ts:1: imports "react": host/startup/ runs before the async boundary and must not load React (a dynamic import() may).',
      'host/startup/start-host.ts:2: imports "../core/slot-item": host/startup/ runs before the async boundary and must not load host/core/, the React side of the host (a dynamic import() may).',
      'host/startup/start-host.ts:4: imports "../hooks/use-api": host/startup/ runs before the async boundary and must not load host/hooks/, the React side of the host (a dynamic import() may).',
    ]);
  });

  it('keeps the host off the server and off Node modules', async () => {
    const violations = await violationsOf({
      'host/core/slot-item.tsx': "import { SLOT } from '../../server/app';\nimport { readFile } from 'fs';\n",
    });
    expect(violations).toEqual([
      'host/core/slot-item.tsx:1: imports "../../server/app": host/ imports only host/, shared/ and packages.',
      'host/core/slot-item.tsx:2: imports "fs": host/ runs in the browser: no Node module.',
    ]);
  });

  it("keeps each remote to its own folder, remotes/common/ and shared/, never another team's folder or the host", async () => {
    const violations = await violationsOf({
      'remotes/marketing/components/Promo.tsx':
        "import { safeHref } from '../../common/safe-href';\n" +
        "import Note from '../../records/components/Note';\n" +
        "import { SlotItem } from '../../../host/core/slot-item';\n",
    });
    expect(violations).toEqual([
      'remotes/marketing/components/Promo.tsx:2: imports "../../records/components/Note": a remote imports only its own folder, remotes/common/ and remotes/kit/, not remotes/records/.',
      'remotes/marketing/components/Promo.tsx:3: imports "../../../host/core/slot-item": remotes/ import only their own folder, remotes/common/, remotes/kit/, shared/ and packages: never the host or the server.',
    ]);
  });

  it("keeps the remote kit to itself, shared/, build/ and the host's slot renderer, since it is packed on its own", async () => {
    const rule =
      'remotes/kit/ imports only itself, shared/, build/, host/core/, host/loader/, packages and Node modules: it is packed on its own.';
    const violations = await violationsOf({
      'remotes/kit/index.ts':
        "import '../common/safe-href';\nimport '../../server/app';\nimport '../../host/app/shell';\n" +
        "import '../../host/core/slot-item';\nimport '../../host/loader/remote-module-loader';\n",
    });
    expect(violations).toEqual([
      `remotes/kit/index.ts:1: imports "../common/safe-href": ${rule}`,
      `remotes/kit/index.ts:2: imports "../../server/app": ${rule}`,
      `remotes/kit/index.ts:3: imports "../../host/app/shell": ${rule}`,
    ]);
  });

  it('leaves standalone remote projects and node_modules to their own tooling', async () => {
    const violations = await violationsOf({
      'remotes/billing/package.json': '{}',
      'remotes/billing/components/Hello.tsx': "import '../../../server/app';\n",
      'remotes/records/node_modules/x/index.ts': "import '../../../../server/app';\n",
    });
    expect(violations).toEqual([]);
  });

  it('finds product code importing test support or a test file', async () => {
    const violations = await violationsOf({
      'server/slots.ts': "import { createTestApp } from './test-support/test-app';\nimport './app.test';\n",
      'build/plugin.ts': "import { makeTempDir } from '../testing/temp-dir';\n",
    });
    expect(violations).toEqual([
      'server/slots.ts:1: imports "./test-support/test-app": product code never imports tests or test support.',
      'server/slots.ts:2: imports "./app.test": product code never imports tests or test support.',
      'build/plugin.ts:1: imports "../testing/temp-dir": product code never imports tests or test support.',
    ]);
  });

  it('finds an import that leaves the repository', async () => {
    const violations = await violationsOf({ 'server/app.ts': "import '../../elsewhere/secret';\n" });
    expect(violations).toEqual([
      'server/app.ts:1: imports "../../elsewhere/secret": it points outside the repository.',
    ]);
  });
});

describe('findImports', () => {
  it('reads every form of import with its line, and tells dynamic imports apart', () => {
    const text = [
      "import React from 'react';",
      "import type { SlotMap } from '../shared';",
      "export { Slot } from './slot';",
      "export * from './wire';",
      "import legacy = require('./legacy');",
      "const lazy = () => import('./lazy');",
      "const fs = require('node:fs');",
      "type Loader = typeof import('./loader');",
      'const notAnImport = \'import x from "./nowhere"\';',
    ].join('\n');
    expect(findImports('host/example.ts', text)).toEqual([
      { specifier: 'react', kind: 'static', line: 1 },
      { specifier: '../shared', kind: 'static', line: 2 },
      { specifier: './slot', kind: 'static', line: 3 },
      { specifier: './wire', kind: 'static', line: 4 },
      { specifier: './legacy', kind: 'static', line: 5 },
      { specifier: './lazy', kind: 'dynamic', line: 6 },
      { specifier: 'node:fs', kind: 'static', line: 7 },
      { specifier: './loader', kind: 'static', line: 8 },
    ]);
  });
});
