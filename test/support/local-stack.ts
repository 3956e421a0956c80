import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { doCreateRealm } from "../../shared/actions/realms/create-realm.js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { BotType, Role } from "../../shared/domain/roles.js";
import { startLocalStack, type LocalStack } from "../../infra/local/stack.js";
import type { RealmRecord } from "../../shared/data/records/realm.js";
import type { UserRecord } from "../../shared/data/records/user.js";

import { call, type ApiResponse, type TestUser } from "./api-client.js";

/** The named users every end-to-end test file gets (STYLE.md point 7). */
export type SeedName = "owner" | "admin" | "moderator" | "member" | "member2" | "guest" | "bot";

export interface TestOrg {
  stack: LocalStack;
  url: string;
  realm: RealmRecord;
  users: Record<SeedName, TestUser>;
  records: Record<SeedName, UserRecord>;
  /** Calls the API as a seeded user (or anonymously with null). */
  api(
    user: TestUser | null,
    method: string,
    path: string,
    params?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  /** Creates one more user in the organization. */
  createUser(name: string, role?: number): Promise<TestUser>;
}

function toTestUser(u: UserRecord): TestUser {
  return { id: u.user_id, email: u.delivery_email, apiKey: u.api_key, fullName: u.full_name, role: u.role };
}

/**
 * Starts a local stack for one test file (in the run's shared DynamoDB
 * Local, with a table of its own) and seeds an organization with an owner,
 * an administrator, a moderator, two members, a guest and a bot owned by
 * the first member. Returns an object filled in by `beforeAll`.
 */
export function useTestOrg(options: { env?: Record<string, string> } = {}): TestOrg {
  const org = {} as TestOrg;
  beforeAll(async () => {
    const stack = await startLocalStack({
      dynamoEndpoint: inject("dynamoEndpoint"),
      tableName: `t_${randomBytes(6).toString("hex")}`,
      env: { LOG_LEVEL: "error", ...options.env },
    });
    const deps = stack.deps;
    const { realm, owner } = await doCreateRealm(deps, {
      string_id: "",
      name: "Test Organization",
      owner: { email: "owner@test.example", full_name: "Olivia Owner", password: "owner-password" },
    });
    const mk = (email: string, full_name: string, role: number) =>
      doCreateUser(deps, realm, { email, full_name, role, password: `${email}-password` });
    const admin = await mk("admin@test.example", "Adam Admin", Role.ADMINISTRATOR);
    const moderator = await mk("moderator@test.example", "Mona Moderator", Role.MODERATOR);
    const member = await mk("member@test.example", "Max Member", Role.MEMBER);
    const member2 = await mk("member2@test.example", "Mia Member", Role.MEMBER);
    const guest = await mk("guest@test.example", "Gus Guest", Role.GUEST);
    const bot = await doCreateUser(deps, realm, {
      email: "test-bot@test.example",
      full_name: "Test Bot",
      is_bot: true,
      bot_type: BotType.DEFAULT,
      bot_owner_id: member.user_id,
    });
    const records = { owner, admin, moderator, member, member2, guest, bot };
    Object.assign(org, {
      stack,
      url: stack.url,
      realm,
      records,
      users: Object.fromEntries(Object.entries(records).map(([k, v]) => [k, toTestUser(v)])) as Record<
        SeedName,
        TestUser
      >,
      api: (user: TestUser | null, method: string, path: string, params?: Record<string, unknown>, headers?: Record<string, string>) =>
        call(stack.url, user, method, path, params, headers),
      createUser: async (name: string, role: number = Role.MEMBER) =>
        toTestUser(await mk(`${name}@test.example`, name, role)),
    });
  });
  afterAll(async () => {
    await org.stack?.stop();
  });
  return org;
}
