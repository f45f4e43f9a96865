/**
 * Builds the moderation provider the settings name (HOOT_MODERATION_PROVIDER): none, openai or guard.
 */
import type { Config } from "../../../config.ts";
import { GuardModeration } from "./guard.ts";
import { OpenAiModeration } from "./openai.ts";
import type { ModerationProvider } from "./types.ts";

/**
 * The configured provider, or null when none is configured.
 * @example const provider = createModeration(config) // pass to moderated(policy, provider, config.moderationTimeoutMs)
 */
export function createModeration(config: Pick<Config, "moderationProvider" | "moderationBaseUrl" | "moderationApiKey" | "moderationModel">): ModerationProvider | null {
  const settings = { baseUrl: config.moderationBaseUrl, apiKey: config.moderationApiKey, model: config.moderationModel };
  if (config.moderationProvider === "openai") return new OpenAiModeration(settings);
  if (config.moderationProvider === "guard") return new GuardModeration(settings);
  return null;
}
