import { builtinModules } from 'node:module';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { FOLDER_ORDERS, type FolderOrder } from './folder-order';
import {
  checkFolderOrder,
  findImportCircles,
  findRoomCycles,
  type GraphFile,
  type ResolvedImport,
} from './import-order';

/**
 * What each product folder may import, checked on the source text: the compiler's per-layer projects keep the
 * layers apart, but they cannot tell one npm package or one sub-folder from another. These rules can.
 *
 * - `shared/` (the contract, run by browsers and Node alike) imports nothing outside `shared/`, no package either.
 * - `server/` imports `server/`, `shared/`, npm packages and Node's modules.
 * - `host/` imports `host/`, `shared/` and npm packages. `host/startup/` and `host/loader/` run before the async
 *   boundary and stay free of React: no `react`, `react-dom`, `react-router-dom`, no `host/core`, `host/hooks`,
 *   `host/app`, `host/pages`, `host/layout` or `host/forms`, no `.tsx` file (JSX compiles to an import of React). A dynamic
 *   `import()` is that boundary, so it may load React code.
 * - `remotes/<team>/` imports its own folder, `remotes/common/`, the remote kit (`remotes/kit/`), `shared/` and npm
 *   packages. Never the host or the server: a remote ships on its own.
 * - `remotes/kit/` (packed into the npm package remote teams install) imports itself, `shared/`, `build/` (the
 *   webpack plugins of its preset), the host's slot renderer (`host/core/`, `host/loader/`: its host emulator and
 *   slot tests render as the product does, with the product's code compiled into the package), npm packages and
 *   Node's modules (its build side runs in Node).
 * - A standalone remote project under `remotes/` (its own `package.json`, made by `npm run remote:new`) is checked
 *   by its own tooling, not here; neither is anything in a `node_modules` folder or a declaration file.
 * - `build/` (webpack plugins) imports `build/`, `shared/`, npm packages and Node's modules.
 * - No product file imports a test file or test support; tests and test support are exempt from the rules above.
 * - `server/` and `host/` keep their declared folder order (scripts/folder-order.ts), no sibling folders at any level
 *   below import each other in a cycle, and no files anywhere import each other in a circle, type-only imports
 *   included (scripts/import-order.ts).
 */

export type ViolationKind = 'boundary' | 'order' | 'undeclared-room' | 'room-cycle' | 'circle';

export interface BoundaryViolation {
  /** Which rule: a folder's import rules (`boundary`), or the graph's (scripts/import-order.ts). */
  kind: ViolationKind;
  /** Repository-relative path, with `/`: a file, or a room the folder order does not name (`server/health/`). */
  file: string;
  /** Where the import is; absent for an undeclared room. */
  line?: number;
  /** The import as written; absent for an undeclared room. */
  specifier?: string;
  reason: string;
}

export interface CheckOptions {
  /** The folder orders to keep: scripts/folder-order.ts's unless given (a test may give its own, or none). */
  orders?: readonly FolderOrder[];
}

export interface BoundaryReport {
  checkedFiles: number;
  violations: BoundaryViolation[];
}

type ImportKind = 'static' | 'dynamic';

interface FoundImport {
  specifier: string;
  kind: ImportKind;
  line: number;
}

/** What an import points at: a file of the repository (its relative path), a package, or one of Node's modules. */
type Target =
  | { kind: 'file'; path: string }
  | { kind: 'package'; name: string }
  | { kind: 'node-builtin'; name: string }
  | { kind: 'outside'; path: string };

const PRODUCT_FOLDERS = ['shared', 'server', 'host', 'remotes', 'build'] as const;
type Layer = (typeof PRODUCT_FOLDERS)[number];

const SOURCE_FILE = /\.(ts|tsx|mts|cts)$/;
// With or without its extension: a file's own name, or how an import names it.
const TEST_FILE = /\.test(\.tsx?)?$/;
const REACT_PACKAGES = new Set(['react', 'react-dom', 'react-router-dom']);
const PRE_BOUNDARY_FOLDERS = ['host/startup/', 'host/loader/'];
const REACT_HOST_FOLDERS = ['host/core/', 'host/hooks/', 'host/app/', 'host/pages/', 'host/layout/', 'host/forms/'];
const NODE_BUILTINS = new Set(builtinModules);

/** Test files and test helpers: wherever they live, they may import anything, and no product file imports them. */
export function isTestCode(file: string): boolean {
  const segments = file.split('/');
  return (
    TEST_FILE.test(file) ||
    segments[0] === 'tests' ||
    segments[0] === 'testing' ||
    segments.slice(0, -1).includes('test-support')
  );
}

/** Every import of a source text: `import`/`export ... from`, `import x = require()`, `require()`, `import()`. */
export function findImports(fileName: string, text: string): FoundImport[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, scriptKindOf(fileName));
  const found: FoundImport[] = [];
  const add = (literal: ts.Node, kind: ImportKind) => {
    if (!ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    found.push({ specifier: literal.text, kind, line });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      add(node.moduleSpecifier, 'static');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, 'static');
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const [first] = node.arguments;
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add(first!, 'dynamic');
      else if (ts.isIdentifier(node.expression) && node.expression.text === 'require') add(first!, 'static');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      // `typeof import('...')` in a type: no code is loaded, but the file depends on that module all the same.
      add(node.argument.literal, 'static');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function scriptKindOf(fileName: string): ts.ScriptKind {
  return fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

function targetOf(file: string, specifier: string): Target {
  if (specifier.startsWith('.')) {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    return resolved === '..' || resolved.startsWith('../')
      ? { kind: 'outside', path: resolved }
      : { kind: 'file', path: resolved };
  }
  if (specifier.startsWith('/')) return { kind: 'outside', path: specifier };
  if (specifier.startsWith('node:')) return { kind: 'node-builtin', name: specifier };
  const segments = specifier.split('/');
  const name = specifier.startsWith('@') ? segments.slice(0, 2).join('/') : segments[0]!;
  if (NODE_BUILTINS.has(name)) return { kind: 'node-builtin', name };
  return { kind: 'package', name };
}

function inFolder(target: string, folder: string): boolean {
  return target === folder || target.startsWith(`${folder}/`);
}

/** The sub-folder of `remotes/` a path lies in (a team's folder or `common`), or undefined for a file directly in it. */
function remoteFolderOf(file: string, remoteFolders: ReadonlySet<string>): string | undefined {
  const folder = file.split('/')[1];
  return folder !== undefined && remoteFolders.has(folder) ? folder : undefined;
}

/** Why `file` may not import `found`, or undefined when it may. */
function violationOf(
  file: string,
  layer: Layer,
  found: FoundImport,
  remoteFolders: ReadonlySet<string>,
): string | undefined {
  const target = targetOf(file, found.specifier);
  if (target.kind === 'outside') return 'it points outside the repository';

  if (target.kind === 'file' && isTestCode(target.path)) {
    return 'product code never imports tests or test support';
  }

  const preBoundary = PRE_BOUNDARY_FOLDERS.find((folder) => file.startsWith(folder));
  if (preBoundary && found.kind === 'static') {
    if (target.kind === 'package' && REACT_PACKAGES.has(target.name)) {
      return `${preBoundary} runs before the async boundary and must not load React (a dynamic import() may)`;
    }
    const reactFolder = target.kind === 'file' && REACT_HOST_FOLDERS.find((folder) => target.path.startsWith(folder));
    if (reactFolder) {
      return `${preBoundary} runs before the async boundary and must not load ${reactFolder}, the React side of the host (a dynamic import() may)`;
    }
  }

  switch (layer) {
    case 'shared':
      if (target.kind === 'file' && inFolder(target.path, 'shared')) return undefined;
      return 'shared/ is the contract of browser and server code alike: it imports only shared/, no package';
    case 'server':
      if (target.kind !== 'file') return undefined;
      if (inFolder(target.path, 'server') || inFolder(target.path, 'shared')) return undefined;
      return 'server/ imports only server/, shared/ and packages';
    case 'build':
      if (target.kind !== 'file') return undefined;
      if (inFolder(target.path, 'build') || inFolder(target.path, 'shared')) return undefined;
      return 'build/ imports only build/, shared/ and packages';
    case 'host':
      if (target.kind === 'package') return undefined;
      if (target.kind === 'node-builtin') return 'host/ runs in the browser: no Node module';
      if (inFolder(target.path, 'host') || inFolder(target.path, 'shared')) return undefined;
      return 'host/ imports only host/, shared/ and packages';
    case 'remotes': {
      if (target.kind === 'package') return undefined;
      if (inFolder(file, 'remotes/kit')) {
        if (target.kind === 'node-builtin') return undefined;
        const packed = ['remotes/kit', 'shared', 'build', 'host/core', 'host/loader'];
        if (packed.some((folder) => inFolder(target.path, folder))) return undefined;
        return 'remotes/kit/ imports only itself, shared/, build/, host/core/, host/loader/, packages and Node modules: it is packed on its own';
      }
      if (target.kind === 'node-builtin') return 'remotes/ run in the browser: no Node module';
      if (inFolder(target.path, 'shared')) return undefined;
      if (inFolder(target.path, 'remotes')) {
        const other = remoteFolderOf(target.path, remoteFolders);
        const allowed = other === 'kit' || other === 'common' || other === remoteFolderOf(file, remoteFolders);
        if (allowed) return undefined;
        return `a remote imports only its own folder, remotes/common/ and remotes/kit/, not ${other === undefined ? target.path : `remotes/${other}/`}`;
      }
      return 'remotes/ import only their own folder, remotes/common/, remotes/kit/, shared/ and packages: never the host or the server';
    }
  }
}

function missingAsEmpty(error: NodeJS.ErrnoException): [] {
  if (error.code === 'ENOENT') return [];
  throw error;
}

async function subFoldersOf(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(missingAsEmpty);
  return new Set(entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
}

async function sourceFilesUnder(rootDir: string, folder: string): Promise<string[]> {
  const entries = await readdir(path.join(rootDir, folder), { recursive: true, withFileTypes: true }).catch(
    missingAsEmpty,
  );
  const standalone = new Set(
    entries
      .filter((entry) => entry.isFile() && entry.name === 'package.json')
      .map((entry) => path.relative(rootDir, entry.parentPath).split(path.sep).join('/'))
      .filter((folder) => folder !== 'remotes/kit' && folder !== folder.split('/')[0]),
  );
  return entries
    .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(rootDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').includes('node_modules'))
    .filter((file) => ![...standalone].some((folder) => inFolder(file, folder)))
    .sort();
}

const RESOLVED_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '/index.ts', '/index.tsx'];

/** The source file an import loads, as TypeScript resolves a relative path (with or without `.js`), if it is one. */
function resolvedFile(file: string, specifier: string, sourceFiles: ReadonlySet<string>): string | undefined {
  const target = targetOf(file, specifier);
  if (target.kind !== 'file') return undefined;
  const bare = target.path.replace(/\.(js|jsx|mjs|cjs)$/, '');
  if (bare === target.path && sourceFiles.has(target.path)) return target.path;
  return RESOLVED_EXTENSIONS.map((extension) => `${bare}${extension}`).find((candidate) => sourceFiles.has(candidate));
}

/** Checks every product file of the repository at `rootDir`. */
export async function checkImportBoundaries(rootDir: string, options: CheckOptions = {}): Promise<BoundaryReport> {
  const orders = options.orders ?? FOLDER_ORDERS;
  const violations: BoundaryViolation[] = [];
  let checkedFiles = 0;
  const remoteFolders = await subFoldersOf(path.join(rootDir, 'remotes'));
  const filesOf = new Map<Layer, string[]>();
  for (const folder of PRODUCT_FOLDERS) filesOf.set(folder, await sourceFilesUnder(rootDir, folder));
  const sourceFiles = new Set([...filesOf.values()].flat());
  const graph: GraphFile[] = [];
  for (const folder of PRODUCT_FOLDERS) {
    for (const file of filesOf.get(folder)!) {
      const text = await readFile(path.join(rootDir, file), 'utf8');
      const imports = findImports(file, text);
      const resolved = imports.map((found): ResolvedImport => {
        const target = targetOf(file, found.specifier);
        return {
          ...found,
          target: resolvedFile(file, found.specifier, sourceFiles),
          path: target.kind === 'file' ? target.path : undefined,
        };
      });
      graph.push({ file, isTest: isTestCode(file), imports: resolved });
      if (isTestCode(file)) continue;
      checkedFiles++;
      const preBoundary = PRE_BOUNDARY_FOLDERS.find((pre) => file.startsWith(pre));
      if (preBoundary && file.endsWith('.tsx')) {
        violations.push({
          kind: 'boundary',
          file,
          line: 1,
          specifier: 'react/jsx-runtime',
          reason: `${preBoundary} runs before the async boundary: no .tsx file there, its JSX would import React`,
        });
      }
      for (const found of imports) {
        const reason = violationOf(file, folder, found, remoteFolders);
        if (reason) violations.push({ kind: 'boundary', file, line: found.line, specifier: found.specifier, reason });
      }
    }
  }
  violations.push(...checkFolderOrder(graph, orders), ...findRoomCycles(graph, orders), ...findImportCircles(graph));
  return { checkedFiles, violations };
}

export function formatViolation(violation: BoundaryViolation): string {
  if (violation.specifier === undefined) return `${violation.file}: ${violation.reason}.`;
  return `${violation.file}:${violation.line}: imports ${JSON.stringify(violation.specifier)}: ${violation.reason}.`;
}
