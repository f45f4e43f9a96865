/**
 * Every open interact session, by socket id and by player, so that limits can be counted, revoked
 * credentials can close their sockets at once (4403), and shutdown can end every stream before closing.
 */
import type { RevocationBus } from "../auth/revocations.ts";
import { CloseCode } from "./protocol.ts";
import type { InteractSession } from "./session.ts";

export interface SessionRegistry {
  readonly size: number;
  add(session: InteractSession): void;
  remove(session: InteractSession): void;
  /** Links an authenticated session to its player; false when the player is at the cap. */
  admit(session: InteractSession, playerId: number): boolean;
  /** Every stream sends its close, then every socket closes with 1001. */
  shutdown(): Promise<void>;
}

/** A registry enforcing `maxPerPlayer` and closing sockets on revocation. */
export function createSessionRegistry(maxPerPlayer: number, revocations: RevocationBus): SessionRegistry {
  const sessions = new Map<string, InteractSession>();
  const byPlayer = new Map<number, Set<InteractSession>>();

  revocations.subscribe((revocation) => {
    const doomed: InteractSession[] = [];
    if (revocation.kind === "player") doomed.push(...(byPlayer.get(revocation.playerId) ?? []));
    if (revocation.kind === "service-account") {
      for (const s of sessions.values()) if (s.player?.serviceAccountId === revocation.serviceAccountId) doomed.push(s);
    }
    for (const s of doomed) void s.shutdown(CloseCode.revoked, "the player's credential was revoked or the player was deleted", "credential_revoked");
  });

  return {
    get size() {
      return sessions.size;
    },
    add(session) {
      sessions.set(session.id, session);
    },
    remove(session) {
      sessions.delete(session.id);
      const playerId = session.player?.playerId;
      if (playerId === undefined) return;
      const set = byPlayer.get(playerId);
      set?.delete(session);
      if (set?.size === 0) byPlayer.delete(playerId);
    },
    admit(session, playerId) {
      let set = byPlayer.get(playerId);
      if (!set) byPlayer.set(playerId, (set = new Set()));
      if (set.size >= maxPerPlayer) return false;
      set.add(session);
      return true;
    },
    async shutdown() {
      await Promise.all([...sessions.values()].map((s) => s.shutdown(CloseCode.goingAway, "the server is shutting down", "server_shutting_down")));
    },
  };
}
