/**
 * src/client owns hoot's TypeScript SDK: developer HTTP helpers and the player's InteractClient. It runs in
 * browsers and apps, so it imports no server code: the wire types come from src/interact/protocol.ts and
 * src/errors.ts as type-only imports.
 */
export { HootApi, HootError, type LoginAnswer, login, type Player } from "./http.ts";
export {
  type AudioEvent,
  type ClientErrorCode,
  InteractClient,
  type InteractClientOptions,
  type InteractEvent,
  type Interaction,
  type InteractOptions,
  type SubtitleMark,
  type Viseme,
  type VisemeMark,
  wsUrl,
} from "./interact.ts";
export { markAt } from "./marks.ts";
