/**
 * `hoot --help`: the commands and every setting, so the standalone binary explains itself without the
 * docs. The settings come from the one settings table (settings.ts), which also gives loadConfig its defaults
 * and bounds and docs/settings.md its table.
 */
import { loadConfig } from "../config.ts";
import { plain, SETTINGS, shownDefault } from "../settings.ts";
import { ADMIN_COMMANDS } from "./admin.ts";

/** Every HOOT_* name loadConfig reads, in the order it reads them. */
export function settingNames(): string[] {
  const names: string[] = [];
  const recorder = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === "string" && name.startsWith("HOOT_") && !names.includes(name)) names.push(name);
      return undefined;
    },
  });
  try {
    loadConfig(recorder);
  } catch {
    // Only the names matter; an unset required value may complain.
  }
  return names;
}

/** The text of `hoot --help`. */
export function helpText(): string {
  const lines = [
    "hoot: a self-hosted conversational AI engine for children's apps",
    "",
    "usage:",
    "  hoot [serve]                       run the server (the default)",
    "  hoot admin <command> [--flags]     an operator command; prints one JSON object",
    "  hoot help | --help | -h            this text",
    "",
    "admin commands:",
  ];
  for (const [name, command] of ADMIN_COMMANDS) {
    const flags = Object.entries(command.flags)
      .map(([flag, type]) => (type === "boolean" ? `[--${flag}]` : `--${flag} ${flag.toUpperCase().replace(/-/g, "_")}`))
      .join(" ");
    lines.push(`  ${name} ${flags}`.trimEnd());
    if (command.summary) lines.push(`      ${command.summary}`);
  }
  lines.push("", "settings (environment variables, or a .env file in the working folder; default: meaning):");
  for (const setting of SETTINGS) lines.push(`  ${setting.name.padEnd(42)} ${plain(shownDefault(setting))}: ${plain(setting.help)}`);
  lines.push("", "API docs: /docs on the running server; the README and docs/ in the source repository have the rest.");
  return lines.join("\n") + "\n";
}
