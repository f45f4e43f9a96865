import { t, type Static } from "elysia";

export const TeamRef = t.Object({ pk: t.Integer(), name: t.String() });
export type TeamRef = Static<typeof TeamRef>;

export const TeamList = t.Object({ teams: t.Array(TeamRef) });
