/**
 * Session awareness: a small pure tracker of boundary testing in one session. Every input the policy
 * intercepted for a reason other than distress or privacy (a jailbreak, sexual, violent, hateful... message)
 * is an attempt; after `strictAfter` attempts the session moves to the "heightened" stance, in which mild
 * findings count and categories a policy allows are redirected. The move is reported once, so the caller
 * records it (an incident `boundary_testing` / `escalate`) and emits one `safety_policy` event.
 *
 * A child in distress (self-harm, abuse) is not testing boundaries, and sharing a phone number is not either:
 * those never count.
 */
import type { Category } from "../detect/categories.ts";

export type Stance = "normal" | "heightened";

export interface SessionSafety {
  readonly attempts: number;
  readonly stance: Stance;
}

export const NEW_SESSION: SessionSafety = { attempts: 0, stance: "normal" };

/** What the caller should do after one input. */
export interface TrackerStep {
  state: SessionSafety;
  /** True exactly once: when this input moved the session to the heightened stance (record an incident). */
  escalated: boolean;
}

const NOT_ATTEMPTS: ReadonlySet<Category> = new Set(["self_harm", "abuse", "personal_info"]);

/** Whether an input's intercepted categories count as boundary testing. */
export function isAttempt(intercepted: readonly Category[]): boolean {
  return intercepted.some((c) => !NOT_ATTEMPTS.has(c));
}

/**
 * Advances the tracker by one checked input.
 * @example observe(NEW_SESSION, ["jailbreak"], 3) // { state: { attempts: 1, stance: "normal" }, escalated: false }
 */
export function observe(state: SessionSafety, intercepted: readonly Category[], strictAfter: number): TrackerStep {
  if (!isAttempt(intercepted)) return { state, escalated: false };
  const attempts = state.attempts + 1;
  const escalated = state.stance === "normal" && attempts >= strictAfter;
  return { state: { attempts, stance: escalated ? "heightened" : state.stance }, escalated };
}
