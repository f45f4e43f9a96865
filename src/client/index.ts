/** hoot's TypeScript client: developer HTTP helpers and the player's InteractClient. */
export { HootApi, HootError, login, type LoginAnswer, type Player } from "./http.ts";
export { InteractClient, wsUrl, type InteractClientOptions, type InteractEvent, type Interaction, type ClientErrorCode } from "./interact.ts";
