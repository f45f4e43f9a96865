import { expect, it } from "bun:test";
import { contract, sealed, teamWithDeveloper, unique } from "./harness.ts";

contract("console repository", ({ store }) => {
  const session = async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    const now = Date.now();
    const row = await store().console.insertSession({
      tokenHash: unique("tok"),
      userId,
      teamId,
      keyVersion: 1,
      method: "api_key",
      lastSeenAt: now,
      expiresAt: now + 3_600_000,
    });
    return { teamId, userId, row, now };
  };

  it("inserts a session and finds it by token hash; touches, moves and stamps it", async () => {
    const { row, now } = await session();
    expect(row).toEqual({
      id: expect.any(Number),
      tokenHash: row.tokenHash,
      userId: row.userId,
      teamId: row.teamId,
      keyVersion: 1,
      method: "api_key",
      createdAt: expect.any(Number),
      lastSeenAt: now,
      expiresAt: now + 3_600_000,
    });
    expect(await store().console.findSessionByHash(row.tokenHash)).toEqual(row);
    expect(await store().console.findSessionByHash("none")).toBeNull();
    const other = await store().teams.insert(unique("t"));
    await store().console.touchSession(row.id, now + 5);
    await store().console.setSessionTeam(row.id, other.id);
    await store().console.setSessionKeyVersion(row.id, 2);
    expect(await store().console.findSessionByHash(row.tokenHash)).toEqual({ ...row, lastSeenAt: now + 5, teamId: other.id, keyVersion: 2 });
  });

  it("deletes one session, a user's other sessions, and stale ones", async () => {
    const { row, userId, teamId, now } = await session();
    const second = await store().console.insertSession({
      tokenHash: unique("tok"),
      userId,
      teamId,
      keyVersion: 1,
      method: "oidc",
      lastSeenAt: now,
      expiresAt: now + 1000,
    });
    const third = await store().console.insertSession({
      tokenHash: unique("tok"),
      userId,
      teamId,
      keyVersion: 1,
      method: "oidc",
      lastSeenAt: now,
      expiresAt: now + 1000,
    });
    await store().console.deleteOtherSessions(userId, row.id);
    expect(await store().console.findSessionByHash(second.tokenHash)).toBeNull();
    expect(await store().console.findSessionByHash(third.tokenHash)).toBeNull();
    expect(await store().console.findSessionByHash(row.tokenHash)).not.toBeNull();
    const idle = await store().console.insertSession({
      tokenHash: unique("tok"),
      userId,
      teamId,
      keyVersion: 1,
      method: "oidc",
      lastSeenAt: now - 10_000,
      expiresAt: now + 100_000,
    });
    const ended = await store().console.insertSession({
      tokenHash: unique("tok"),
      userId,
      teamId,
      keyVersion: 1,
      method: "oidc",
      lastSeenAt: now,
      expiresAt: now - 1,
    });
    await store().console.deleteStaleSessions(now, now - 5_000);
    expect(await store().console.findSessionByHash(idle.tokenHash)).toBeNull();
    expect(await store().console.findSessionByHash(ended.tokenHash)).toBeNull();
    expect(await store().console.findSessionByHash(row.tokenHash)).not.toBeNull();
    await store().console.deleteSession(row.id);
    expect(await store().console.findSessionByHash(row.tokenHash)).toBeNull();
  });

  it("keeps pending sign-ins: counted per flow, taken once, expired ones deleted", async () => {
    const now = Date.now();
    const before = { sdk: await store().console.countLogins("sdk"), console: await store().console.countLogins("console") };
    const login = {
      stateHash: unique("state"),
      purpose: "sdk" as const,
      browserHash: null,
      codeVerifierEnc: sealed("verifier"),
      nonce: "n",
      redirectUri: "http://127.0.0.1:1/",
      expiresAt: now + 600_000,
    };
    await store().console.insertLogin(login);
    await store().console.insertLogin({ ...login, stateHash: unique("state"), purpose: "console", browserHash: "b", expiresAt: now - 1 });
    expect(await store().console.countLogins("sdk")).toBe(before.sdk + 1);
    expect(await store().console.countLogins("console")).toBe(before.console + 1);
    const [first, second] = await Promise.all([store().console.takeLogin(login.stateHash), store().console.takeLogin(login.stateHash)]);
    expect([first, second].filter((x) => x !== null)).toEqual([{ ...login, createdAt: expect.any(Number) }]);
    await store().console.deleteExpiredLogins(now);
    expect(await store().console.countLogins("sdk")).toBe(before.sdk);
    expect(await store().console.countLogins("console")).toBe(before.console);
  });
});
