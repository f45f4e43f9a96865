/** Which page shows: the URL hash (`#/players`, `#/playground?player=3`), so links and the back button work. */

export const PAGES = [
  { id: "profile", title: "Profile" },
  { id: "keys", title: "Authentication" },
  { id: "players", title: "Players" },
  { id: "safety", title: "Safety" },
  { id: "playground", title: "Playground" },
  { id: "settings", title: "Team settings" },
] as const;
/** Pages reached from another page only (not in the navigation). */
export const INNER_PAGES = [{ id: "player", title: "Player" }] as const;
export type PageId = (typeof PAGES)[number]["id"] | (typeof INNER_PAGES)[number]["id"];

/** The page named in `#/name?query`, and its query. */
export function route(): { page: PageId; query: URLSearchParams } {
  const [path = "", query = ""] = location.hash.replace(/^#\/?/, "").split("?");
  const page = [...PAGES, ...INNER_PAGES].find((p) => p.id === path)?.id ?? "profile";
  return { page, query: new URLSearchParams(query) };
}

/** Moves to another page. */
export function go(page: PageId, query?: Record<string, string>): void {
  location.hash = `#/${page}${query ? `?${new URLSearchParams(query)}` : ""}`;
}
