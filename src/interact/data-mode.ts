/**
 * Data-lite mode (PROTOCOL.md section 8): on a team that requires a parent's consent, a player without it
 * talks without anything of the conversation being stored, and their audio never leaves the machine.
 *
 * The decision is one port (`DataModes.mode`, asked at every history load and record and before every
 * transcription, so an open socket follows a changed consent from its next turn), and it acts in two places
 * only, both wrapped here around the ports the session already uses:
 * - the history: in lite mode `load` and `record` use this socket's own memory (RAM, at most `memoryChars`
 *   characters, gone with the socket) instead of the database; nothing is written;
 * - the recogniser: in lite mode a recogniser on another host than loopback is not asked; the turn fails
 *   with `stt_consent_required` (a recogniser on this machine may still transcribe).
 * Incidents are recorded as ever (they hold no words). Consent granted later does not carry the RAM memory
 * into storage: what was said without consent is never written.
 */
import type { HistoryMessage } from "../engine/index.ts";
import { VoiceInputError } from "../engine/index.ts";
import type { History } from "./history.ts";
import type { DataModes, SessionPorts } from "./session-ports.ts";
import type { VoicePorts } from "./voice.ts";

/**
 * The ports one socket works with: the shared ones, with the history and the recogniser following the
 * player's data mode. Without a `dataModes` port (tests without the app) the shared ports as they are.
 * @example this.ports = withDataMode(ports, () => this.identity?.playerId)
 */
export function withDataMode(shared: SessionPorts, player: () => number | undefined): SessionPorts {
  const modes = shared.dataModes;
  if (!modes) return shared;
  return {
    ...shared,
    history: followingHistory(shared.history, modes),
    ...(shared.voice ? { voice: followingVoice(shared.voice, modes, player) } : {}),
  };
}

function followingHistory(stored: History, modes: DataModes): History {
  // One RAM memory for the socket, whichever of its histories (the shared one, or the session's own that
  // remembers decrypted rows) a turn uses.
  let memory: HistoryMessage[] = [];
  const over = (full: History): History => ({
    load: async (playerId) => ((await modes.mode(playerId)) === "lite" ? memory.slice() : full.load(playerId)),
    record: async (playerId, turn) => {
      if ((await modes.mode(playerId)) === "full") return full.record(playerId, turn);
      const added: HistoryMessage[] = [];
      if (turn.userText !== null) added.push({ role: "user", text: turn.userText });
      if (turn.reply.trim() !== "") added.push({ role: "assistant", text: turn.reply });
      memory = trim([...memory, ...added], modes.memoryChars);
    },
    // A truncate (the Realtime wire) cuts the reply where it is remembered: in RAM in lite mode, never in storage.
    amendReply: async (playerId, whole, reply) => {
      if ((await modes.mode(playerId)) === "full") return (await full.amendReply?.(playerId, whole, reply)) ?? false;
      const at = memory.findLastIndex((m) => m.role === "assistant" && m.text === whole);
      if (at < 0) return false;
      memory = reply.trim() === "" ? memory.filter((_, i) => i !== at) : memory.map((m, i) => (i === at ? { ...m, text: reply } : m));
      return true;
    },
    forSession: () => over(full.forSession?.() ?? full),
  });
  return over(stored);
}

function followingVoice(voice: VoicePorts, modes: DataModes, player: () => number | undefined): VoicePorts {
  return {
    ...voice,
    stt: () => {
      const recogniser = voice.stt();
      if (!voice.leavesMachine?.()) return recogniser;
      return {
        name: recogniser.name,
        async transcribe(request) {
          const playerId = player();
          // No player (cannot happen after authentication): nothing leaves either.
          if (playerId === undefined || (await modes.mode(playerId)) === "lite") {
            throw new VoiceInputError(
              "stt_consent_required",
              "Speech recognition needs a parent's consent for this player: the recogniser is outside this machine. Send text instead.",
            );
          }
          return recogniser.transcribe(request);
        },
      };
    },
  };
}

// The newest messages within `chars`, so a long socket's RAM memory stays bounded.
function trim(messages: HistoryMessage[], chars: number): HistoryMessage[] {
  let used = 0;
  let from = messages.length;
  while (from > 0 && used + messages[from - 1]!.text.length <= chars) used += messages[--from]!.text.length;
  return messages.slice(from);
}
