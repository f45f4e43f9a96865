/** Which page shows: the URL hash (`#/players`, `#/playground?player=3`), so links and the back button work. */

export const PAGES = [
  { id: "profile", title: "Profile" },
  { id: "keys", title: "Authentication" },
  { id: "players", title: "Players" },
  { id: "safety", title: "Safety" },
  { id: "playground", title: "Playground" },
] as const;
export type PageId = (typeof PAGES)[number]["id"];

/** The page named in `#/name?query`, and its query. */
export function route(): { page: PageId; query: URLSearchParams } {
  const [path = "", query = ""] = location.hash.replace(/^#\/?/, "").split("?");
  const page = PAGES.find((p) => p.id === path)?.id ?? "profile";
  return { page, query: new URLSearchParams(query) };
}

/** Moves to another page. */
export function go(page: PageId, query?: Record<string, string>): void {
  location.hash = `#/${page}${query ? `?${new URLSearchParams(query)}` : ""}`;
}
