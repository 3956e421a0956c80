/**
 * The seeded organization of end-to-end tests, and its template.
 *
 * Seeding (a realm and seven users through the same actions the API uses:
 * six scrypt password hashes, the `realm_user` event fan-out) takes about
 * 1.5 s on an idle 2-core machine. So the e2e global setup seeds once into
 * a template table ({@link createOrgTemplate}); each test file then gets a
 * table of its own holding a copy of the template's items (about 80 items,
 * {@link copyTableItems}: about 0.1 s) and the seeded records.
 */
import {
  BatchWriteItemCommand,
  ScanCommand,
  type DynamoDBClient,
  type AttributeValue,
  type WriteRequest,
} from "@aws-sdk/client-dynamodb";
import { doCreateRealm } from "../../shared/actions/realms/create-realm.js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import type { Deps } from "../../shared/deps.js";
import { BotType, Role } from "../../shared/domain/roles.js";
import type { RealmRecord } from "../../shared/data/records/realm.js";
import type { UserRecord } from "../../shared/data/records/user.js";
import { startLocalStack } from "../../infra/local/stack.js";

/** The named users every end-to-end test file gets (STYLE.md point 7). */
export type SeedName = "owner" | "admin" | "moderator" | "member" | "member2" | "guest" | "bot";

/** A seeded organization: its realm and the stored records of its users (API keys included). */
export interface SeededOrg {
  realm: RealmRecord;
  records: Record<SeedName, UserRecord>;
}

/**
 * The password-hash cost of test stacks (scrypt N = 2^10: 1 MiB and about a
 * millisecond), as Zulip's test settings use a fast hasher; the production
 * default (2^17) would add about half a second per seeded user and login.
 * Tests of the cost itself set `PASSWORD_HASH_LOG2_N` in their `env`.
 */
export const TEST_PASSWORD_HASH_LOG2_N = "10";

/** A table holding a freshly seeded organization, to be copied per test file. */
export interface OrgTemplate extends SeededOrg {
  tableName: string;
}

/**
 * Seeds an organization: an owner, an administrator, a moderator, two
 * members, a guest and a bot owned by the first member, created one after
 * the other (user IDs follow this order).
 */
export async function seedTestOrg(deps: Deps): Promise<SeededOrg> {
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
  return { realm, records: { owner, admin, moderator, member, member2, guest, bot } };
}

/**
 * Creates the table `tableName` in a running DynamoDB (Local) and seeds it
 * with {@link seedTestOrg} through a local stack with the test files'
 * default configuration, waiting for the deferred work seeding enqueued.
 * @returns the table's name and the seeded records (plain data, serializable)
 */
export async function createOrgTemplate(dynamoEndpoint: string, tableName = "org_template"): Promise<OrgTemplate> {
  const stack = await startLocalStack({ dynamoEndpoint, tableName, env: { LOG_LEVEL: "error", PASSWORD_HASH_LOG2_N: TEST_PASSWORD_HASH_LOG2_N } });
  try {
    const seeded = await seedTestOrg(stack.deps);
    await stack.drainDeferredWork();
    return { tableName, ...seeded };
  } finally {
    await stack.stop();
  }
}

/** Items per BatchWriteItem (DynamoDB's limit). */
const BATCH_WRITE_MAX = 25;

/**
 * Copies every item of table `from` into the existing table `to` (same key
 * schema), with strongly consistent scans and BatchWriteItem, retrying
 * unprocessed items.
 * @throws Error when items stay unprocessed after 10 attempts
 */
export async function copyTableItems(client: DynamoDBClient, from: string, to: string): Promise<void> {
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: from, ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    const items = page.Items ?? [];
    for (let i = 0; i < items.length; i += BATCH_WRITE_MAX) {
      let requests: WriteRequest[] = items.slice(i, i + BATCH_WRITE_MAX).map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 1; requests.length > 0; attempt++) {
        if (attempt > 10) throw new Error(`copying ${from} to ${to}: ${requests.length} items stayed unprocessed`);
        if (attempt > 1) await new Promise((r) => setTimeout(r, 20 * attempt));
        const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [to]: requests } }));
        requests = out.UnprocessedItems?.[to] ?? [];
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}
