import { describe, expect, it } from "vitest";
import { upgradePasswordHash } from "../../shared/actions/users/fetch-api-key.js";
import { hashPassword, verifyPassword } from "../../shared/auth/password.js";
import { updateUserFields, userById } from "../../shared/data/users.js";
import { useTestOrg } from "../support/local-stack.js";

// A cost above the old 2^15, which test stacks lower for speed. Half the
// production 2^17 (shared/auth/password.test.ts checks that default) keeps
// this file's dozen hashes affordable on a busy machine.
const org = useTestOrg({ env: { PASSWORD_HASH_LOG2_N: "16" } });

const CONFIGURED = /^scrypt\$65536\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/;
const OLD = /^scrypt\$32768\$8\$1\$/;

/** The stored password hash of a seeded user, read through the data layer. */
async function storedHash(userId: number): Promise<string> {
  return (await userById(org.stack.deps, org.realm.id, userId))!.password_hash!;
}

/** Gives a user a hash of `password` at N=2^15, the cost of hashes stored before 2^17. */
async function giveOldHash(userId: number, password: string): Promise<string> {
  const old = await hashPassword(password, 15);
  expect(await updateUserFields(org.stack.deps, org.realm.id, userId, { password_hash: old })).toBe(true);
  return old;
}

describe("password hashes at the configured cost, upgraded at the next login", () => {
  it("stores new users' hashes with the configured N, r=8, p=1 in the hash string", async () => {
    const hash = await storedHash(org.users.owner.id);
    expect(hash).toMatch(CONFIGURED);
    expect(await verifyPassword("owner-password", hash)).toBe(true);
  });

  it("replaces an N=2^15 hash with one at the configured N=2^16 at a successful POST /fetch_api_key, once", async () => {
    // Prepare
    const { member } = org.users;
    const password = `${member.email}-password`;
    const old = await giveOldHash(member.id, password);
    // Act
    const login = await org.api(null, "POST", "/fetch_api_key", { username: member.email, password });
    const upgraded = await storedHash(member.id);
    const again = await org.api(null, "POST", "/fetch_api_key", { username: member.email, password });
    // Assess
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ result: "success", msg: "", api_key: member.apiKey, email: member.email, user_id: member.id });
    expect(upgraded).toMatch(CONFIGURED);
    expect(upgraded).not.toBe(old);
    expect(await verifyPassword(password, upgraded)).toBe(true);
    expect(again.status).toBe(200);
    expect(await storedHash(member.id)).toBe(upgraded);
  });

  it("keeps the old hash after a wrong password", async () => {
    const { member2 } = org.users;
    const old = await giveOldHash(member2.id, `${member2.email}-password`);
    const login = await org.api(null, "POST", "/fetch_api_key", { username: member2.email, password: "not-the-password" });
    expect(login.status).toBe(401);
    expect(login.body).toEqual({ result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" });
    expect(await storedHash(member2.id)).toBe(old);
  });

  it("lets a concurrent password change win over a login's upgrade of the old hash", async () => {
    // Prepare: a login read the user with the old hash; meanwhile the password changes.
    const { moderator } = org.users;
    const password = `${moderator.email}-password`;
    await giveOldHash(moderator.id, password);
    const readByLogin = (await userById(org.stack.deps, org.realm.id, moderator.id))!;
    const change = await org.api(moderator, "PATCH", "/settings", { old_password: password, new_password: "a-new-passw0rd!" });
    expect(change.status).toBe(200);
    // Act
    await upgradePasswordHash(org.stack.deps, readByLogin, password);
    // Assess
    const stored = await storedHash(moderator.id);
    expect(stored).toMatch(CONFIGURED);
    expect(await verifyPassword("a-new-passw0rd!", stored)).toBe(true);
    expect(await verifyPassword(password, stored)).toBe(false);
    expect(OLD.test(readByLogin.password_hash!)).toBe(true);
  });
});
