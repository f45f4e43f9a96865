/**
 * Child safety in one interact session: the policy the configuration names, the session's stance, and the
 * checks each turn runs (src/engine/safety is the library; this file is where the session uses it).
 *
 *   set_configuration  -> `await configure(ref, teamId)`: a built-in name, or the player's team's own policy
 *                         (looked up in that team only), compiled once and kept until the next reconfigure;
 *   interact           -> `forTurn(player).screen(text, signal)`: the child's words are checked before the
 *                         model is called; the engine gets the redacted text, or a line to say instead;
 *                         the reply is gated sentence by sentence through the returned TurnSafety.
 *
 * Rules it keeps:
 * - the model, the history and the logs only ever get the redacted text; an input the policy intercepted
 *   (redirect, escalate) is stored as WITHHELD, so its words never reach the database or a later prompt;
 * - every intervention is a notice (category and action, never text); every escalation is an incident
 *   (player, session, category, action, direction, policy; never text);
 * - the tracker counts boundary-testing attempts for the whole socket (a reconfigure does not reset it);
 *   reaching the heightened stance is one notice and one incident (`boundary_testing` / `escalate`), and
 *   every later check of the session, input and output, runs on that stance;
 * - nothing here throws into the turn: a check that fails answers with the policy's fallback line.
 */
// Types only: the rules library is loaded off the start-up path (engine/safety/lazy.ts).
import type {
  CompiledPolicy,
  EngineLogger,
  Incident,
  ModeratedChecker,
  ModerationProvider,
  Notice,
  PolicyRef,
  SessionSafety,
  TeamPolicyRow,
} from "../engine/index.ts";
import { isSpeakFirst, safetyLibrary, safetyPolicyNames, type TurnSafety } from "../engine/index.ts";

/** What the history keeps in place of a message the policy intercepted. */
export const WITHHELD = "(message withheld by the safety policy)";

/** One escalation to record, without any text. */
export interface IncidentRecord extends Incident {
  teamId: number;
  playerId: number;
  sessionId: string;
  /** The name of the policy in force. */
  policy: string;
}

/** A team policy as the store hands it over: validated and ready to compile, or the reason it cannot be used. */
export type StoredPolicy = { row: TeamPolicyRow } | { invalid: string };

/** What the session needs from the app to apply policies (the database and the settings behind it). */
export interface SafetyPorts {
  /** The team's own policy called `name`, searching that team only; null when it has none by that name. */
  findTeamPolicy(teamId: number, name: string): StoredPolicy | null | Promise<StoredPolicy | null>;
  /** The team's policy names (for the error that lists what may be named). */
  teamPolicyNames(teamId: number): string[] | Promise<string[]>;
  /** Records an escalation; must not throw (nor reject). An input's incident is awaited before the turn goes on (the app's recorder settles after its first attempt, retrying a busy database in the background). */
  recordIncident(incident: IncidentRecord): void | Promise<void>;
  /** A moderation model behind the rules (HOOT_MODERATION_PROVIDER), or null. */
  moderation: ModerationProvider | null;
  moderationTimeoutMs: number;
}

/** Checkers without a moderation model, by policy (they hold nothing of a session). */
const RULES_ONLY = new WeakMap<CompiledPolicy, ModeratedChecker>();

/** Built-in policies only, no moderation, incidents not kept: for sessions built without the app (unit tests). */
export const BUILTIN_ONLY: SafetyPorts = {
  findTeamPolicy: () => null,
  teamPolicyNames: () => [],
  recordIncident: () => {},
  moderation: null,
  moderationTimeoutMs: 1500,
};

/** The outcome of checking the child's words, as the turn uses it. */
export interface Screened {
  /** What the model sees: personal information replaced. */
  text: string;
  /** A line to answer with instead of calling the model (redirect, escalate, a failed check), or null. */
  reply: string | null;
  /** `safety_policy` events to send before the reply. */
  notices: Notice[];
  /** What the history keeps as the child's message: the redacted text, WITHHELD, or null on a "." turn. */
  stored: string | null;
  /** The reply's checks for the engine. */
  safety: TurnSafety;
}

/** The safety hooks of one turn. */
export interface TurnGuard {
  screen(text: string, signal: AbortSignal): Promise<Screened>;
}

export interface GuardPlayer {
  playerId: number;
  teamId?: number;
}

const NEW_SESSION: SessionSafety = { attempts: 0, stance: "normal" };

/** The policy and stance of one session. */
export class SessionGuard {
  /** Null until the first configuration: the default policy then. */
  private checker: ModeratedChecker | null = null;
  private state: SessionSafety = NEW_SESSION;

  constructor(
    private readonly sessionId: string,
    private readonly ports: SafetyPorts,
    private readonly logger: EngineLogger,
  ) {}

  /** The policy in force (its name). */
  get policy(): string {
    return this.checker?.policy.name ?? "children_strict";
  }

  /** The session's stance: "heightened" once it has tested boundaries `strict_after` times. */
  get stance(): SessionSafety["stance"] {
    return this.state.stance;
  }

  /**
   * Resolves the configuration's `safety_policy` within the player's team and, when it exists, makes it the
   * session's policy. Returns a sentence naming the field, or null.
   * @example await guard.configure({ reference: "space_game" }, 3) // null, or 'field "config.safety_policy": unknown policy ...'
   */
  async configure(ref: PolicyRef, teamId: number | undefined): Promise<string | null> {
    const lib = await safetyLibrary();
    const builtin = lib.builtinPolicy(ref);
    if (builtin) {
      this.checker = this.wrap(lib, builtin);
      return null;
    }
    const name = lib.policyName(ref);
    const stored = teamId === undefined ? null : await this.ports.findTeamPolicy(teamId, name);
    if (stored === null) {
      const available = ["default", ...safetyPolicyNames(), ...(teamId === undefined ? [] : (await this.ports.teamPolicyNames(teamId)).slice(0, 50))];
      return `field "config.safety_policy": unknown policy "${name}" (available: ${available.join(", ")})`;
    }
    if ("invalid" in stored)
      return `field "config.safety_policy": the team policy "${name}" cannot be used (${stored.invalid}); fix it with PUT /api/safety-policies/${name}`;
    this.checker = this.wrap(lib, lib.teamPolicy(stored.row));
    return null;
  }

  /** The hooks for one turn of `player`, bound to the policy in force now. */
  forTurn(player: GuardPlayer): TurnGuard {
    const configured = this.checker;
    return {
      screen: async (text, signal) => {
        const lib = await safetyLibrary();
        const checker = configured ?? this.wrap(lib, lib.builtinPolicy(null) as CompiledPolicy);
        const record = (incident: Incident): void | Promise<void> => {
          if (player.teamId === undefined) return;
          return this.ports.recordIncident({
            ...incident,
            teamId: player.teamId,
            playerId: player.playerId,
            sessionId: this.sessionId,
            policy: checker.policy.name,
          });
        };
        let context = "";
        const safety: TurnSafety = {
          checkOutput: checker.policy.checksOutput
            ? (unit, unitSignal) => checker.checkOutput(unit, { stance: this.state.stance, context, signal: unitSignal })
            : null,
          onIncident: (incident) => void record(incident),
        };
        if (isSpeakFirst(text)) return { text, reply: null, notices: [], stored: null, safety };
        try {
          const verdict = await checker.checkInput(text, { stance: this.state.stance, signal });
          context = verdict.text;
          const notices = [...verdict.notices];
          if (verdict.incident) await record(verdict.incident);
          const step = lib.observe(this.state, verdict.intercepted, checker.policy.strictAfter);
          this.state = step.state;
          if (step.escalated) {
            notices.push({ category: "boundary_testing", action: "escalate" });
            await record({ category: "boundary_testing", action: "escalate", direction: "input" });
            this.logger.info(
              { event: "safety_stance", session: this.sessionId, attempts: step.state.attempts },
              "session moved to the heightened safety stance",
            );
          }
          const stored = verdict.reply === null ? verdict.text : WITHHELD;
          return { text: verdict.text, reply: verdict.reply, notices, stored, safety };
        } catch (error) {
          // A check that cannot finish never lets the words through: answer with the fallback line.
          this.logger.error({ event: "safety_check_failed", session: this.sessionId, err: (error as Error).message }, "input check failed");
          return {
            text: lib.redactPii(text).text,
            reply: checker.policy.fallbackLine(text),
            notices: [{ category: "moderation", action: "redirect" }],
            stored: WITHHELD,
            safety,
          };
        }
      },
    };
  }

  private wrap(lib: Awaited<ReturnType<typeof safetyLibrary>>, policy: CompiledPolicy): ModeratedChecker {
    // Without a moderation model the checker is the policy's rules and nothing of the session's: one per policy,
    // shared by every session (an idle session then holds a reference, not a set of closures).
    if (!this.ports.moderation) {
      let shared = RULES_ONLY.get(policy);
      if (!shared) RULES_ONLY.set(policy, (shared = lib.moderated(policy, null, this.ports.moderationTimeoutMs)));
      return shared;
    }
    return lib.moderated(policy, this.ports.moderation, this.ports.moderationTimeoutMs, (error, direction) =>
      this.logger.warn(
        {
          event: "moderation_failed",
          session: this.sessionId,
          provider: this.ports.moderation?.name,
          direction,
          err: (error as Error).name,
          status: (error as { status?: number }).status,
        },
        "moderation failed; held the text",
      ),
    );
  }
}
