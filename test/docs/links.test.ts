/**
 * The docs hold together: every relative link in README.md and docs/*.md names a file of the repository (and,
 * with a #fragment, one of its headings, slugged as GitHub slugs them), nothing points outside the repository,
 * and every page in docs/ is on the README's map.
 */
import { describe, expect, it } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code spans, where links and headings live. */
function prose(markdown: string): string {
  return markdown
    .split(/^```.*$/m)
    .filter((_, i) => i % 2 === 0)
    .join("\n")
    .replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function slug(heading: string, seen: Map<string, number>): string {
  const base = heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

/** Every anchor a markdown file's headings give (inline code keeps its words, as on GitHub). */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8")
    .split(/^```.*$/m)
    .filter((_, i) => i % 2 === 0)
    .join("\n");
  const seen = new Map<string, number>();
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug((m[1] as string).replace(/`/g, ""), seen)));
}

/** The targets of a page's markdown links, `[text](target)`. */
function links(page: string): string[] {
  return [...prose(readFileSync(join(ROOT, page), "utf8")).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe("the docs' links", () => {
  it("finds the README and at least eight pages in docs/", () => {
    expect(PAGES.length).toBeGreaterThanOrEqual(9);
  });

  it("slugs headings as GitHub does", () => {
    const seen = new Map<string, number>();
    expect(slug("Choices where the hosted engine's contract is silent", seen)).toBe("choices-where-the-hosted-engines-contract-is-silent");
    expect(slug("run and render_prompt", seen)).toBe("run-and-render_prompt");
    expect(slug("Locks, shutdown, the port, metrics", seen)).toBe("locks-shutdown-the-port-metrics");
    expect(slug("Settings", seen)).toBe("settings");
    expect(slug("Settings", seen)).toBe("settings-1");
  });

  it.each(PAGES)("every relative link in %s resolves to a file, and a heading when it names one", (page) => {
    const broken: string[] = [];
    for (const target of links(page)) {
      if (isExternal(target)) continue;
      const [path = "", fragment] = target.split("#");
      const file = path === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURI(path));
      if (relative(ROOT, file).startsWith("..")) broken.push(`${target}: outside the repository`);
      else if (!existsSync(file)) broken.push(`${target}: no such file`);
      else if (fragment !== undefined && (statSync(file).isDirectory() || !file.endsWith(".md") || !anchors(file).has(fragment)))
        broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it.each(PAGES)("%s names no path outside the repository", (page) => {
    expect(readFileSync(join(ROOT, page), "utf8")).not.toContain("../shared");
  });

  it("every page in docs/ is on the README's map", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const start = readme.indexOf("## The documentation\n");
    expect(start).toBeGreaterThan(-1);
    const end = readme.indexOf("\n## ", start + 1);
    const map = new Set(links("README.md").filter((target) => readme.slice(start, end === -1 ? undefined : end).includes(`(${target})`)));
    const missing = PAGES.filter((page) => page.startsWith("docs/") && !map.has(page));
    expect(missing).toEqual([]);
  });
});
