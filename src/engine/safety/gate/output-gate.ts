/**
 * The streaming gate for model output: text fragments go in as they stream, sentence boundaries (the
 * chunker's units of speech) say when a sentence is complete, and text comes out only once its sentence has
 * passed the check: as it was, redacted, replaced by a safe line (and the reply ends), or dropped.
 *
 * Rules it keeps:
 * - no fragment is released before the unit that contains it has been checked, so an unsafe sentence split
 *   across tokens ("sen", "d me a pho", "to") never leaks a piece;
 * - each unit is also checked together with the unit before it, so a sentence cut into a first clause and
 *   the rest ("Here is how you can hurt," + "yourself badly.") cannot pass in two halves;
 * - after a replacement the gate is closed: everything after it is dropped and `ended` is true, so the caller
 *   stops the model;
 * - the check may be async (a moderation service); calls are serialised by the caller awaiting each one.
 *
 * It is pure (no timers, no I/O): the wiring puts it between the chunker and the output (see stage.ts).
 */
import type { Notice, OutputVerdict } from "../policy/compiled.ts";

/** What the gate releases, in order: text to show, a unit to speak, a safety notice. */
export type GateEvent =
  | { type: "text"; text: string }
  | { type: "speech"; text: string }
  | { type: "notice"; category: Notice["category"]; action: Notice["action"] };

/** Checks one unit; `context` is the unit before it (for split sentences), or "". */
export type UnitCheck = (unit: string) => OutputVerdict | Promise<OutputVerdict>;

const SPEAKABLE = /[\p{L}\p{N}]/u;

export class OutputGate {
  private held = "";
  private previous = "";
  private closed = false;
  /** Incidents the checks asked for, to be recorded by the caller. */
  readonly incidents: NonNullable<OutputVerdict["incident"]>[] = [];

  constructor(private readonly check: UnitCheck) {}

  /** True once a replacement ended the reply: stop the model, nothing more will be released. */
  get ended(): boolean {
    return this.closed;
  }

  /** Holds a streamed text fragment until its unit is checked. */
  push(fragment: string): void {
    if (!this.closed) this.held += fragment;
  }

  /**
   * A unit of speech completed (its text is the next part of the held text, trimmed): checks it and
   * releases its text and speech, or their replacement.
   * @example gate.push("Hi there. "); await gate.unit("Hi there.") // [{type:"text",...}, {type:"speech",...}]
   */
  async unit(unit: string): Promise<GateEvent[]> {
    if (this.closed) return [];
    const { raw, lead } = this.take(unit);
    return this.release(unit, raw, lead);
  }

  /** The reply ended: checks and releases what is still held (text with no speech unit, e.g. a trailing emoji). */
  async end(): Promise<GateEvent[]> {
    if (this.closed) return [];
    const rest = this.held;
    this.held = "";
    if (rest === "") return [];
    if (!SPEAKABLE.test(rest)) return [{ type: "text", text: rest }];
    const events = await this.release(rest.trim(), rest, rest.slice(0, rest.length - rest.trimStart().length));
    return events.filter((e) => e.type !== "speech");
  }

  /** Cuts the unit's raw text (with its leading whitespace) off the held text. */
  private take(unit: string): { raw: string; lead: string } {
    const body = this.held.trimStart();
    const lead = this.held.slice(0, this.held.length - body.length);
    if (body.startsWith(unit)) {
      const raw = this.held.slice(0, lead.length + unit.length);
      this.held = this.held.slice(raw.length);
      return { raw, lead };
    }
    // The unit does not line up with the held text (a chunker that rewrote it): take up to where it ends,
    // or everything held, so nothing is released unchecked.
    const at = this.held.indexOf(unit);
    const cut = at >= 0 ? at + unit.length : this.held.length;
    const raw = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    return { raw, lead };
  }

  private async release(unit: string, raw: string, lead: string): Promise<GateEvent[]> {
    const checked = raw.trim() === unit ? unit : raw.trim();
    let verdict = await this.check(checked);
    if (this.previous !== "" && (verdict.action === "pass" || verdict.action === "redact")) {
      const joint = await this.check(`${this.previous} ${checked}`);
      if (joint.action === "drop" || joint.action === "replace") verdict = joint;
    }
    const events: GateEvent[] = verdict.notices.map((n) => ({ type: "notice", category: n.category, action: n.action }));
    if (verdict.incident) this.incidents.push(verdict.incident);
    switch (verdict.action) {
      case "pass":
        this.previous = checked;
        events.push({ type: "text", text: raw }, { type: "speech", text: unit });
        break;
      case "redact":
        this.previous = verdict.text;
        events.push({ type: "text", text: lead + verdict.text }, { type: "speech", text: verdict.text });
        break;
      case "drop":
        this.previous = "";
        break;
      case "replace":
        this.closed = true;
        this.held = "";
        events.push({ type: "text", text: lead + verdict.text }, { type: "speech", text: verdict.text });
        break;
    }
    return events;
  }
}
