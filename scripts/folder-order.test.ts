import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../testing/temp-dir';
import { HOST_ORDER, SERVER_ORDER, type FolderOrder } from './folder-order';
import { checkImportBoundaries, formatViolation, type ViolationKind } from './import-boundaries';

/** A small tree that keeps the declared orders of server/ and host/: every import runs down. */
const CLEAN_TREE: Record<string, string> = {
  'shared/index.ts': "export { SLOT } from './slot';\n",
  'shared/slot.ts': "import type { Wire } from './wire';\nexport const SLOT = 1;\n",
  'shared/wire.ts': 'export interface Wire {\n  slot: number;\n}\n',
  'server/logger.ts': 'export const logger = console;\n',
  'server/http/errors.ts': "import { logger } from '../logger';\n",
  'server/slots/slot-registry.ts': "import '../http/errors';\nimport { SLOT } from '../../shared';\n",
  'server/slots/slot-contract.ts': 'export interface SlotContract {\n  name: string;\n}\n',
  'server/slots/slot-registry.test.ts': "import '../app';\n",
  'server/auth/login-rate-limit/limiter.ts': "import '../../http/errors';\n",
  'server/auth/auth-router.ts': "import './login-rate-limit/limiter';\nimport type { Session } from './session';\n",
  'server/auth/session.ts': 'export interface Session {\n  id: string;\n}\n',
  'server/app.ts':
    "import './slots/slot-registry';\nimport './auth/auth-router';\nimport { logger } from './logger';\n",
  'server/main.ts': "import './app';\n",
  'host/assets.d.ts': "declare module '*.svg';\n",
  'host/loader/api-client.ts': "import { SLOT } from '../../shared';\n",
  'host/startup/start-host.ts': "import '../loader/api-client';\n",
  'host/core/slot-item.tsx': "import '../loader/api-client';\n",
  'host/hooks/use-api.ts': "import '../loader/api-client';\n",
  'host/pages/records/record-page.tsx': "import '../../hooks/use-api';\nimport '../common/page-title';\n",
  'host/pages/placements/placements-page.tsx': "import '../common/page-title';\nimport '../records/record-link';\n",
  'host/pages/records/record-link.tsx': "import '../common/page-title';\n",
  'host/pages/common/page-title.tsx': "import '../../core/slot-item';\n",
  'host/app/app-routes.tsx': "import '../pages/records/record-page';\n",
  'host/bootstrap.tsx': "import './app/app-routes';\n",
  'host/index.ts': "import './styles.css';\nimport './startup/start-host';\nvoid import('./bootstrap');\n",
};

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

describe('the folder order and import circles', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir('folder-order-');
  });

  afterEach(() => {
    dir.remove();
  });

  async function violationsOf(
    extra: Record<string, string>,
    orders?: readonly FolderOrder[],
  ): Promise<{ kind: ViolationKind; line: string }[]> {
    await writeTree(dir.path, { ...CLEAN_TREE, ...extra });
    const report = await checkImportBoundaries(dir.path, orders ? { orders } : {});
    return report.violations.map((violation) => ({ kind: violation.kind, line: formatViolation(violation) }));
  }

  it('passes a tree whose imports all run down the declared order, type-only imports and sub-folders included', async () => {
    expect(await violationsOf({})).toEqual([]);
  });

  it('fails an import against the declared order, saying which room is below which', async () => {
    const violations = await violationsOf({
      'server/http/errors.ts':
        "import { logger } from '../logger';\nimport type { SlotContract } from '../slots/slot-contract';\n",
      'host/startup/start-host.ts':
        "import '../loader/api-client';\nexport const later = () => import('../app/app-routes');\n",
    });
    expect(violations).toEqual([
      {
        kind: 'order',
        line: 'server/http/errors.ts:2: imports "../slots/slot-contract": server/http/ is below server/slots/ in the folder order (scripts/folder-order.ts): a room imports only the rooms below it.',
      },
      {
        kind: 'order',
        line: 'host/startup/start-host.ts:2: imports "../app/app-routes": host/startup/ is below host/app/ in the folder order (scripts/folder-order.ts): a room imports only the rooms below it.',
      },
    ]);
  });

  it('fails an import between two rooms of one layer', async () => {
    const order: FolderOrder = {
      folder: 'server',
      layers: [['logger.ts'], ['http/', 'slots/'], ['auth/'], ['app.ts', 'main.ts']],
    };
    const violations = await violationsOf({ 'server/slots/slot-registry.ts': "import '../http/errors';\n" }, [order]);
    expect(violations.map(({ line }) => line)).toEqual([
      // Both rooms of the top layer too: a layer is a set, not an order.
      'server/main.ts:1: imports "./app": server/main.ts and server/app.ts share a layer of the folder order (scripts/folder-order.ts): rooms of one layer never import each other.',
      'server/slots/slot-registry.ts:1: imports "../http/errors": server/slots/ and server/http/ share a layer of the folder order (scripts/folder-order.ts): rooms of one layer never import each other.',
    ]);
  });

  it('fails a room the order does not name, and says where it fits', async () => {
    const violations = await violationsOf({
      'server/gadgets/readiness.ts': "import '../http/errors';\n",
      'server/gadgets/readiness.test.ts': "import '../app';\n",
      'server/app.ts': "import './slots/slot-registry';\nimport './gadgets/readiness';\n",
      'host/widgets.tsx': "import './core/slot-item';\n",
    });
    expect(violations).toEqual([
      {
        kind: 'undeclared-room',
        line: 'server/gadgets/: not in the folder order: add it to SERVER_ORDER in scripts/folder-order.ts, above server/http/ (the highest room it imports) and below server/app.ts (the lowest room that imports it).',
      },
      {
        kind: 'undeclared-room',
        line: 'host/widgets.tsx: not in the folder order: add it to HOST_ORDER in scripts/folder-order.ts, above host/core/ (the highest room it imports).',
      },
    ]);
  });

  it('fails sibling sub-folders that import each other in a cycle, naming an import of each edge', async () => {
    const violations = await violationsOf({
      'host/pages/records/record-link.tsx': "import '../common/page-title';\nimport '../placements/placement-link';\n",
      'host/pages/placements/placement-link.tsx': "import '../common/page-title';\n",
      'server/auth/login-rate-limit/limiter.ts': "import '../../http/errors';\nimport { Session } from '../session';\n",
      'server/auth/session.ts': "import type { Limiter } from './login-rate-limit/limiter';\n",
    });
    expect(violations).toEqual([
      {
        kind: 'room-cycle',
        line:
          'host/pages/placements/placements-page.tsx:2: imports "../records/record-link": sibling rooms of host/pages/ import each other in a cycle: ' +
          'host/pages/placements/ -> host/pages/records/ -> host/pages/placements/ (then host/pages/records/record-link.tsx:2 imports "../placements/placement-link"); ' +
          'siblings import one way only, so one of these imports has to go or the shared piece has to move below both.',
      },
      {
        kind: 'room-cycle',
        line:
          'server/auth/login-rate-limit/limiter.ts:2: imports "../session": sibling rooms of server/auth/ import each other in a cycle: ' +
          'server/auth/login-rate-limit/ -> server/auth/session.ts -> server/auth/login-rate-limit/ (then server/auth/session.ts:1 imports "./login-rate-limit/limiter"); ' +
          'siblings import one way only, so one of these imports has to go or the shared piece has to move below both.',
      },
      {
        kind: 'circle',
        line:
          'server/auth/login-rate-limit/limiter.ts:2: imports "../session": import circle of 2 files: ' +
          'server/auth/login-rate-limit/limiter.ts -> server/auth/session.ts -> server/auth/login-rate-limit/limiter.ts ' +
          '(then server/auth/session.ts:1 imports "./login-rate-limit/limiter") (type-only imports count too).',
      },
    ]);
  });

  it('fails a two-file circle held by a type-only import, and a three-file circle, in any product folder', async () => {
    const violations = await violationsOf({
      'shared/wire.ts': "import { SLOT } from './slot';\nexport interface Wire {\n  slot: typeof SLOT;\n}\n",
      'server/slots/slot-registry.ts': "import '../http/errors';\nimport { SLOT_ORDER } from './slot-order';\n",
      'server/slots/slot-order.ts': "export { SLOT_CHECK } from './slot-check';\n",
      'server/slots/slot-check.ts': "const registry = require('./slot-registry');\n",
    });
    expect(violations).toEqual([
      {
        kind: 'circle',
        line:
          'shared/slot.ts:1: imports "./wire": import circle of 2 files: shared/slot.ts -> shared/wire.ts -> shared/slot.ts ' +
          '(then shared/wire.ts:1 imports "./slot") (type-only imports count too).',
      },
      {
        kind: 'circle',
        line:
          'server/slots/slot-check.ts:1: imports "./slot-registry": import circle of 3 files: ' +
          'server/slots/slot-check.ts -> server/slots/slot-registry.ts -> server/slots/slot-order.ts -> server/slots/slot-check.ts ' +
          '(then server/slots/slot-registry.ts:2 imports "./slot-order"; server/slots/slot-order.ts:1 imports "./slot-check") (type-only imports count too).',
      },
    ]);
  });

  it('does not count a dynamic import() towards a circle: it is the lazy edge that breaks one', async () => {
    const violations = await violationsOf({
      'host/core/slot-item.tsx':
        "import '../loader/api-client';\nexport const lazy = () => import('./slot-boundary');\n",
      'host/core/slot-boundary.tsx': "import './slot-item';\n",
    });
    expect(violations).toEqual([]);
  });

  it('declares every room of the orders once, folders with a trailing slash', () => {
    for (const order of [SERVER_ORDER, HOST_ORDER]) {
      const rooms = order.layers.flat();
      expect(new Set(rooms).size).toBe(rooms.length);
      for (const room of rooms) expect(room).toMatch(/^[a-z][a-z0-9-]*(\/|\.tsx?)$/);
    }
  });
});
