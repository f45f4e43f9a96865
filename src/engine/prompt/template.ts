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
