/**
 * Builds the moderation provider the settings name (HOOT_MODERATION_PROVIDER): none, openai or guard.
 * Takes the settings structurally so src/engine imports nothing from outside itself.
 */
import { GuardModeration } from "./guard.ts";
import { OpenAiModeration } from "./openai.ts";
import type { ModerationProvider } from "./types.ts";

/**
 * The configured provider, or null when none is configured.
 * @example const provider = createModeration(config) // pass to moderated(policy, provider, config.moderationTimeoutMs)
 */
export function createModeration(config: {
  moderationProvider: string;
  moderationBaseUrl: string;
  moderationApiKey: string;
  moderationModel: string;
}): ModerationProvider | null {
  const settings = { baseUrl: config.moderationBaseUrl, apiKey: config.moderationApiKey, model: config.moderationModel };
  if (config.moderationProvider === "openai") return new OpenAiModeration(settings);
  if (config.moderationProvider === "guard") return new GuardModeration(settings);
  return null;
}
