/**
 * A small reader of the import graph of `src/`, for the architecture tests.
 *
 * It reads every static `import ... from`, `import "..."`, `export ... from` (type-only ones included: a circle of
 * types is still a circle for the reader) and every dynamic `import("...")` of a string literal, and keeps the ones
 * that name a file in the repository (relative specifiers). Package imports are not edges. Statements are found by
 * their keyword at the start of a line, so an example inside a doc comment is never read as an import.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";

export const ROOT = resolve(import.meta.dir, "../..");

/** One import edge: `from` imports `to` (both repository-relative paths); `type` when the statement is type-only. */
export interface ImportEdge {
  from: string;
  to: string;
  type: boolean;
  dynamic: boolean;
}

const STATIC = /^(?:import|export)\s+(type\s+)?(?:[^;"'`]*?\s+from\s+)?["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Every source file under `folder` (repository-relative, `.ts`/`.tsx`). */
export function sourceFiles(folder = "src"): string[] {
  return [...new Glob("**/*.{ts,tsx}").scanSync(join(ROOT, folder))].map((file) => `${folder}/${file}`).sort();
}

function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(join(ROOT, from)), specifier.replace(/\.js$/, ""));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(ROOT, candidate);
  }
  return null;
}

/** The import edges of one file. */
export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(STATIC)) {
    const to = resolveSpecifier(file, match[2] as string);
    if (to) edges.push({ from: file, to, type: Boolean(match[1]), dynamic: false });
  }
  for (const match of text.matchAll(DYNAMIC)) {
    const to = resolveSpecifier(file, match[1] as string);
    if (to) edges.push({ from: file, to, type: false, dynamic: true });
  }
  return edges;
}

/** The whole graph of `src/`: every file and its edges. */
export function importGraph(folder = "src"): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>();
  for (const file of sourceFiles(folder)) graph.set(file, importsOf(file));
  return graph;
}

/** The import circles (strongly connected components with more than one file, or a file importing itself). */
export function importCircles(graph: Map<string, ImportEdge[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = (edges[frame.edge++] as ImportEdge).to;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = edges.some((edge) => edge.to === frame.node);
        if (component.length > 1 || selfLoop) circles.push(component.sort());
      }
    }
  }
  return circles;
}
