import { dirname } from 'node:path/posix';
import type { IModule } from 'dependency-cruiser';

/**
 * Arrows between folders that close a cycle for now, each with why. They
 * are left out of the search for cycles, so that a new cycle shows though
 * it passes through them; each must still close one, so that the list
 * cannot outlive its reasons.
 */
export const KNOWN_FOLDER_CYCLES: Record<string, string> = {
  'src/infrastructure/api-keys/ → src/':
    "the `keys` commands (api-key.cli.ts) open their database with src/cli-database.ts, which the CLI's other commands share; it belongs below src/ (outside issue 38's files)",
};

/** Imports between folders (from → to → an import that makes the arrow). */
type FolderGraph = Map<string, Map<string, string>>;

/**
 * Cycles between folders, each folder being the files directly in it.
 * dependency-cruiser's folder scope counts a folder with its subfolders, so
 * an import from a folder into its own subfolder is inside the folder and
 * never part of a cycle: src/db/point-read.ts importing
 * src/db/postgres/batched-read.ts, which imported src/db/prepared-query.ts,
 * was not one. Here it is.
 *
 * An import of a leaf, a file that imports nothing of src (the
 * configuration, the schema's types), is not counted: nothing leads back
 * from it, so it is vocabulary that a folder's subfolders may share.
 */
export function folderCycles(modules: IModule[]): { cycles: string[][]; stale: string[] } {
  const local = modules.filter((module) => module.source.startsWith('src/'));
  const imports = (module: IModule) =>
    module.dependencies.map((dependency) => dependency.resolved).filter((path) => path.startsWith('src/'));
  const leaves = new Set(
    local.filter((module) => imports(module).length === 0).map((module) => module.source),
  );
  const graph: FolderGraph = new Map();
  for (const module of local) {
    const from = dirname(module.source);
    for (const path of imports(module)) {
      const to = dirname(path);
      if (to === from || leaves.has(path)) continue;
      const targets = graph.get(from) ?? new Map<string, string>();
      graph.set(from, targets);
      if (!targets.has(to)) targets.set(to, `${module.source} → ${path}`);
    }
  }
  const known = Object.keys(KNOWN_FOLDER_CYCLES).map((arrow) =>
    arrow.split(' → ').map((folder) => folder.slice(0, -1)),
  );
  const stale = Object.keys(KNOWN_FOLDER_CYCLES).filter((_, i) => {
    const [from, to] = known[i];
    return !graph.get(from)?.has(to) || !reaches(graph, to, from);
  });
  for (const [from, to] of known) graph.get(from)?.delete(to);
  const cycles = stronglyConnected(graph)
    .filter((component) => component.length > 1)
    .map((component) => {
      const members = new Set(component);
      const arrows: string[] = [];
      for (const from of [...component].sort()) {
        for (const [to, example] of [...(graph.get(from) ?? [])].sort()) {
          if (members.has(to)) arrows.push(`${from}/ → ${to}/  (${example})`);
        }
      }
      return arrows;
    });
  return { cycles, stale };
}

function reaches(graph: FolderGraph, from: string, to: string): boolean {
  const seen = new Set<string>();
  const next = [from];
  for (let folder = next.pop(); folder !== undefined; folder = next.pop()) {
    if (folder === to) return true;
    if (seen.has(folder)) continue;
    seen.add(folder);
    next.push(...(graph.get(folder)?.keys() ?? []));
  }
  return false;
}

/** Tarjan's algorithm: the graph's strongly connected components. */
function stronglyConnected(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    lowest.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(node, Math.min(lowest.get(node) as number, lowest.get(next) as number));
      } else if (onStack.has(next)) {
        lowest.set(node, Math.min(lowest.get(node) as number, index.get(next) as number));
      }
    }
    if (lowest.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}
