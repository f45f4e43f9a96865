/**
 * src/client owns hoot's TypeScript SDK: developer HTTP helpers and the player's InteractClient. It runs in
 * browsers and apps, so it imports no server code: the wire types come from src/interact/protocol.ts and
 * src/errors.ts as type-only imports.
 */
export { HootApi, HootError, login, type LoginAnswer, type Player } from "./http.ts";
export { InteractClient, wsUrl, type InteractClientOptions, type InteractEvent, type Interaction, type ClientErrorCode } from "./interact.ts";
