import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { Role } from "../../shared/domain/roles.js";
import { ensureTable, localDynamoDbClient } from "../../shared/data/table-admin.js";
import { startLocalStack, type LocalStack } from "../../infra/local/stack.js";
import type { RealmRecord } from "../../shared/data/records/realm.js";
import type { UserRecord } from "../../shared/data/records/user.js";

import { call, type ApiResponse, type TestUser } from "./api-client.js";
import { copyTableItems, seedTestOrg, TEST_PASSWORD_HASH_LOG2_N, type SeedName, type SeededOrg } from "./test-org.js";

export type { SeedName } from "./test-org.js";

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
 * Local, with a table of its own) holding a seeded organization: an owner,
 * an administrator, a moderator, two members, a guest and a bot owned by
 * the first member (see `seedTestOrg`). Returns an object filled in by
 * `beforeAll`.
 *
 * `webDist` is the built web app the stack serves (test/support/web-dist.ts
 * makes one); by default the checkout's `web/dist`.
 *
 * Without `env` the table starts as a copy of the run's template (seeded
 * once by the e2e global setup); with `env`, which may change what seeding
 * stores, the file seeds its own table.
 * @throws Error in `beforeAll` outside the e2e project (no DynamoDB Local)
 */
export function useTestOrg(options: { env?: Record<string, string>; webDist?: string } = {}): TestOrg {
  const org = {} as TestOrg;
  beforeAll(async () => {
    const dynamoEndpoint = inject("dynamoEndpoint");
    if (!dynamoEndpoint) {
      throw new Error(
        "useTestOrg needs DynamoDB Local, started by the e2e project's global setup: " +
          "put this file under test/e2e/ or test/contract/ (see vitest.config.ts)",
      );
    }
    const tableName = `t_${randomBytes(6).toString("hex")}`;
    const template = options.env ? undefined : inject("orgTemplate");
    if (template) {
      const client = localDynamoDbClient(dynamoEndpoint);
      try {
        await ensureTable(client, tableName);
        await copyTableItems(client, template.tableName, tableName);
      } finally {
        client.destroy();
      }
    }
    const stack = await startLocalStack({
      dynamoEndpoint,
      tableName,
      // Suites make hundreds of requests per user; rate-limit tests turn limits on in `env`.
      // Password hashes are cheap unless a test sets the cost (see TEST_PASSWORD_HASH_LOG2_N).
      env: { LOG_LEVEL: "error", RATE_LIMITS: "off", PASSWORD_HASH_LOG2_N: TEST_PASSWORD_HASH_LOG2_N, ...options.env },
      webDist: options.webDist,
    });
    const deps = stack.deps;
    const { realm, records }: SeededOrg = template ?? (await seedTestOrg(deps));
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
        toTestUser(
          await doCreateUser(deps, realm, { email: `${name}@test.example`, full_name: name, role, password: `${name}@test.example-password` }),
        ),
    });
  });
  afterAll(async () => {
    await org.stack?.stop();
  });
  return org;
}
