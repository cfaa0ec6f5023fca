import type { FolderOrder } from './folder-order';
import { layerOf } from './folder-order';

/**
 * The checks of the import graph as a whole, where scripts/import-boundaries.ts checks each import alone:
 *
 * - the declared folder order (scripts/folder-order.ts): a top-level room of `server/` or `host/` imports only rooms
 *   of lower layers, and every room is declared;
 * - below the top level of an ordered folder, at every folder level, the imports between sibling rooms form no cycle;
 * - no import circle between files, anywhere in the product folders.
 *
 * Every static import counts, type-only ones included (`import type`, `export type`, `typeof import()`): a type
 * import ties two files together for whoever reads or moves them, even though it loads no code. A dynamic
 * `import()` counts for the order (it still runs upward or downward) but not for cycles: it is the deliberate lazy
 * edge that breaks a load-time cycle. Tests and test support are exempt from the order and from room cycles (a test
 * may drive its room through a higher one), not from file circles. *
 * Over 300 lines in one file because the three checks share one graph and one cycle search (Tarjan, then the
 * shortest cycle through a component, to name it).
 */

export type GraphViolationKind = 'order' | 'undeclared-room' | 'room-cycle' | 'circle';

export interface GraphViolation {
  kind: GraphViolationKind;
  /** Repository-relative path, with `/`: the importing file, or an undeclared room (`server/health/`). */
  file: string;
  line?: number;
  specifier?: string;
  reason: string;
}

/** One import of a product folder's file, resolved to a source file of the repository when it names one. */
export interface ResolvedImport {
  specifier: string;
  kind: 'static' | 'dynamic';
  line: number;
  /** The repository file it loads, when it is a source file of a product folder. */
  target?: string;
  /** The repository path it names, resolved or not (`host/pages/sign-in`), when it is a relative import. */
  path?: string;
}

export interface GraphFile {
  file: string;
  isTest: boolean;
  imports: readonly ResolvedImport[];
}

const ORDER_FILE = 'scripts/folder-order.ts';

/** `server/http/public-fast-path.ts` -> `http/`; `server/app.ts` -> `app.ts`: the top-level room of a file. */
function roomOf(folder: string, file: string): string | undefined {
  if (!file.startsWith(`${folder}/`)) return undefined;
  const rest = file.slice(folder.length + 1).split('/');
  return rest.length > 1 ? `${rest[0]}/` : rest[0];
}

function orderName(order: FolderOrder): string {
  return `${order.folder.toUpperCase()}_ORDER`;
}

/** The declared order of `server/` and `host/`: imports against it, and rooms it does not name. */
export function checkFolderOrder(files: readonly GraphFile[], orders: readonly FolderOrder[]): GraphViolation[] {
  const violations: GraphViolation[] = [];
  for (const order of orders) {
    const { folder } = order;
    const own = files.filter((entry) => !entry.isTest && roomOf(folder, entry.file) !== undefined);
    const undeclared = new Map<string, { imports: Set<number>; importedBy: Set<number> }>();
    for (const entry of own) {
      const room = roomOf(folder, entry.file)!;
      if (layerOf(order, room) === undefined && !undeclared.has(room)) {
        undeclared.set(room, { imports: new Set(), importedBy: new Set() });
      }
    }
    for (const entry of own) {
      const room = roomOf(folder, entry.file)!;
      const layer = layerOf(order, room);
      for (const found of entry.imports) {
        // An import of a file that does not exist (tsc reports it) still names its room when it names a sub-folder.
        const inSubFolder = found.path !== undefined && found.path.split('/').length > 2;
        const named = found.target ?? (inSubFolder ? found.path : undefined);
        const targetRoom = named === undefined ? undefined : roomOf(folder, named);
        if (targetRoom === undefined || targetRoom === room) continue;
        const targetLayer = layerOf(order, targetRoom);
        if (layer === undefined || targetLayer === undefined) {
          if (layer === undefined && targetLayer !== undefined) undeclared.get(room)!.imports.add(targetLayer);
          if (targetLayer === undefined && layer !== undefined) undeclared.get(targetRoom)?.importedBy.add(layer);
          continue;
        }
        if (targetLayer < layer) continue;
        const from = `${folder}/${room}`;
        const to = `${folder}/${targetRoom}`;
        const reason =
          targetLayer === layer
            ? `${from} and ${to} share a layer of the folder order (${ORDER_FILE}): rooms of one layer never import each other`
            : `${from} is below ${to} in the folder order (${ORDER_FILE}): a room imports only the rooms below it`;
        violations.push({ kind: 'order', file: entry.file, line: found.line, specifier: found.specifier, reason });
      }
    }
    for (const [room, { imports, importedBy }] of undeclared) {
      const roomsOf = (layer: number) => order.layers[layer]!.map((name) => `${folder}/${name}`).join(', ');
      const highest = imports.size > 0 ? Math.max(...imports) : undefined;
      const lowest = importedBy.size > 0 ? Math.min(...importedBy) : undefined;
      const where = [
        highest === undefined ? undefined : `above ${roomsOf(highest)} (the highest room it imports)`,
        lowest === undefined ? undefined : `below ${roomsOf(lowest)} (the lowest room that imports it)`,
      ].filter((part) => part !== undefined);
      const conflict = highest !== undefined && lowest !== undefined && highest >= lowest;
      const placement = conflict
        ? `; no layer fits today: it imports ${roomsOf(highest)} and is imported by ${roomsOf(lowest)}, so one of those imports has to go`
        : where.length > 0
          ? `, ${where.join(' and ')}`
          : '';
      violations.push({
        kind: 'undeclared-room',
        file: `${folder}/${room}`,
        reason: `not in the folder order: add it to ${orderName(order)} in ${ORDER_FILE}${placement}`,
      });
    }
  }
  return violations;
}

interface Edge {
  from: string;
  to: string;
  /** The first import that makes the edge: which file, at which line, as written. */
  file: string;
  line: number;
  specifier: string;
}

/** Tarjan's strongly connected components of a graph, each a list of nodes; components of one node are left out unless it imports itself. */
export function cyclicComponents(
  nodes: readonly string[],
  edges: ReadonlyMap<string, ReadonlyMap<string, Edge>>,
): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; targets: Iterator<string> }[] = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: (edges.get(node)?.keys() ?? [].values()) as Iterator<string> });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const step = top.targets.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(top.node, Math.min(low.get(top.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || edges.get(top.node)?.has(top.node)) components.push(component.sort());
    }
  }
  return components;
}

/** The shortest cycle through `start` inside its component, as the edges taken. */
function shortestCycle(
  start: string,
  component: ReadonlySet<string>,
  edges: ReadonlyMap<string, ReadonlyMap<string, Edge>>,
): Edge[] {
  const cameBy = new Map<string, Edge>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const [target, edge] of edges.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [edge];
        for (let at = node; at !== start; at = cameBy.get(at)!.from) path.unshift(cameBy.get(at)!);
        return path;
      }
      if (!cameBy.has(target)) {
        cameBy.set(target, edge);
        queue.push(target);
      }
    }
  }
  throw new Error(`${start} is in a cycle but none was found through it`);
}

function addEdge(edges: Map<string, Map<string, Edge>>, edge: Edge): void {
  let from = edges.get(edge.from);
  if (!from) edges.set(edge.from, (from = new Map()));
  if (!from.has(edge.to)) from.set(edge.to, edge);
}

function describeEdges(cycle: readonly Edge[], skipFirst: boolean): string {
  return cycle
    .slice(skipFirst ? 1 : 0)
    .map((edge) => `${edge.file}:${edge.line} imports ${JSON.stringify(edge.specifier)}`)
    .join('; ');
}

/** Import circles between files: every static import, type-only ones included. */
export function findImportCircles(files: readonly GraphFile[]): GraphViolation[] {
  const edges = new Map<string, Map<string, Edge>>();
  for (const entry of files) {
    for (const found of entry.imports) {
      if (found.kind !== 'static' || found.target === undefined) continue;
      addEdge(edges, {
        from: entry.file,
        to: found.target,
        file: entry.file,
        line: found.line,
        specifier: found.specifier,
      });
    }
  }
  const nodes = files.map((entry) => entry.file);
  return cyclicComponents(nodes, edges).map((component) => {
    const cycle = shortestCycle(component[0]!, new Set(component), edges);
    const [first] = cycle;
    const names = [...cycle.map((edge) => edge.from), first!.from].join(' -> ');
    const rest = cycle.length > 1 ? ` (then ${describeEdges(cycle, true)})` : '';
    const wider =
      component.length > cycle.length
        ? `; ${component.length} files are tied in this circle: ${component.join(', ')}`
        : '';
    return {
      kind: 'circle' as const,
      file: first!.file,
      line: first!.line,
      specifier: first!.specifier,
      reason: `import circle of ${cycle.length} file${cycle.length === 1 ? '' : 's'}: ${names}${rest}${wider} (type-only imports count too)`,
    };
  });
}

/**
 * Below the top level of an ordered folder: at every folder level, the imports between sibling rooms (sub-folders
 * and files) form no cycle. A cycle of files alone is an import circle, reported as one; this reports the cycles
 * that run through a sub-folder.
 */
export function findRoomCycles(files: readonly GraphFile[], orders: readonly FolderOrder[]): GraphViolation[] {
  // Each import is an edge between two sibling rooms at exactly one level: the deepest folder holding both files.
  const levels = new Map<string, Map<string, Map<string, Edge>>>();
  for (const entry of files) {
    if (entry.isTest) continue;
    const order = orders.find((candidate) => entry.file.startsWith(`${candidate.folder}/`));
    if (!order) continue;
    for (const found of entry.imports) {
      if (found.kind !== 'static' || found.target === undefined) continue;
      const from = entry.file.split('/');
      const to = found.target.split('/');
      let common = 0;
      while (common < from.length - 1 && common < to.length - 1 && from[common] === to[common]) common++;
      // `common` segments shared: the level is their folder; below the ordered folder's own top level only.
      if (common < 2 || to[0] !== order.folder) continue;
      const level = from.slice(0, common).join('/');
      const child = (segments: string[]) => `${level}/${segments[common]}${segments.length > common + 1 ? '/' : ''}`;
      let edges = levels.get(level);
      if (!edges) levels.set(level, (edges = new Map()));
      addEdge(edges, {
        from: child(from),
        to: child(to),
        file: entry.file,
        line: found.line,
        specifier: found.specifier,
      });
    }
  }
  const violations: GraphViolation[] = [];
  for (const level of [...levels.keys()].sort()) {
    const edges = levels.get(level)!;
    const nodes = [
      ...new Set([...edges.keys(), ...[...edges.values()].flatMap((targets) => [...targets.keys()])]),
    ].sort();
    for (const component of cyclicComponents(nodes, edges)) {
      if (!component.some((room) => room.endsWith('/'))) continue;
      const start = component.find((room) => room.endsWith('/'))!;
      const cycle = shortestCycle(start, new Set(component), edges);
      const [first] = cycle;
      const names = [...cycle.map((edge) => edge.from), first!.from].join(' -> ');
      violations.push({
        kind: 'room-cycle',
        file: first!.file,
        line: first!.line,
        specifier: first!.specifier,
        reason:
          `sibling rooms of ${level}/ import each other in a cycle: ${names} (then ${describeEdges(cycle, true)}); ` +
          'siblings import one way only, so one of these imports has to go or the shared piece has to move below both',
      });
    }
  }
  return violations;
}
