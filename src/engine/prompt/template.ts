/**
 * Fills `{{name}}` placeholders in the configuration prompt from the interact context.
 *
 * Choice: an unknown placeholder becomes an empty string. Keeping "{{player_name}}" would put template syntax in
 * front of the model, which may then say it out loud to a child; an empty slot reads naturally far more often.
 * The names of missing placeholders are returned so the caller can log them (they are developer data, not child text).
 */
import type { Context, ContextValue } from "../types.ts";

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

export interface FilledTemplate {
  text: string;
  missing: string[];
}

/** Shows a context value as text: numbers and booleans as JavaScript prints them. */
export function contextValueText(value: ContextValue): string {
  return typeof value === "string" ? value : String(value);
}

/**
 * Replaces every `{{name}}` (spaces inside the braces allowed) with `context[name]`.
 * @example fillTemplate("Hi {{ player_name }}!", { player_name: "Mia" }).text === "Hi Mia!"
 */
export function fillTemplate(template: string, context: Context): FilledTemplate {
  const missing: string[] = [];
  const text = template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = Object.hasOwn(context, name) ? context[name] : undefined;
    if (value === undefined) {
      if (!missing.includes(name)) missing.push(name);
      return "";
    }
    return contextValueText(value);
  });
  return { text, missing };
}

/**
 * How often each `{{name}}` appears in a template.
 * @example placeholderUses("{{a}} and {{ a }} and {{b}}") // Map { "a" => 2, "b" => 1 }
 */
export function placeholderUses(template: string): Map<string, number> {
  const uses = new Map<string, number>();
  for (const match of template.matchAll(PLACEHOLDER)) uses.set(match[1] as string, (uses.get(match[1] as string) ?? 0) + 1);
  return uses;
}
