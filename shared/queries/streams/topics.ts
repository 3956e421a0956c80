import { queryAll } from "../../data/query.js";
import { BatchGetCommand , type BatchGetCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../../deps.js";
import { keys, unpad } from "../../data/keys.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { canReadStreamHistory } from "../../domain/stream-permissions.js";
import { InvalidChannelIdError } from "../../errors.js";
import { accessStream } from "../../access/stream.js";

/**
 * Topic history of a stream (`GET /users/me/{stream_id}/topics`, Zulip's
 * `get_topic_history_for_stream`).
 *
 * There is no per-topic summary item: topics are derived from the newest
 * messages of the stream, read through the stream-history index
 * (`keys.messageByStream`, gsi1, newest first, projecting only the sort key
 * and the topic). The scan stops after {@link TOPIC_SCAN_LIMIT} messages,
 * so topics whose last message is older than that are not listed; this
 * keeps the cost bounded (about 5000 × ~100 bytes = a few pages) however
 * long the history is.
 */

type Db = Pick<Deps, "db" | "table">;

/** Most recent messages examined per request; older topics are left out. */
export const TOPIC_SCAN_LIMIT = 5000;

/** One topic of the response: its name as in its newest message, and that message's ID. */
export interface TopicSummary {
  name: string;
  max_id: number;
}

/**
 * Groups (message ID, topic) pairs into topics: case-insensitively, named
 * as in their newest message, ordered by newest message first.
 * @param messages any order
 */
export function summarizeTopics(messages: { id: number; topic: string }[]): TopicSummary[] {
  const byKey = new Map<string, TopicSummary>();
  for (const m of messages) {
    const key = m.topic.toLowerCase();
    const known = byKey.get(key);
    if (!known || m.id > known.max_id) byKey.set(key, { name: m.topic, max_id: m.id });
  }
  return [...byKey.values()].sort((a, b) => b.max_id - a.max_id);
}

/** Newest-first pages of a gsi1 partition, projected, up to `limit` items. */
async function queryNewest(
  deps: Db,
  gsi1pk: string,
  projection: string,
  names: Record<string, string>,
  limit: number,
): Promise<Record<string, unknown>[]> {
  return queryAll(
    deps,
    {
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": gsi1pk },
      ProjectionExpression: projection,
      ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,
      ScanIndexForward: false,
    },
    limit,
  );
}

/** The topics of messages by ID: projected BatchGets of 100 keys, in parallel, unprocessed keys retried. */
async function topicsOfMessages(deps: Db, messageIds: number[]): Promise<{ id: number; topic: string }[]> {
  const chunks: number[][] = [];
  for (let i = 0; i < messageIds.length; i += 100) chunks.push(messageIds.slice(i, i + 100));
  const results = await Promise.all(
    chunks.map(async (chunk) => {
      const found: { id: number; topic: string }[] = [];
      let pending: Record<string, unknown>[] = chunk.map((id) => keys.message(id));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 8) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
        if (attempt > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
        const out: BatchGetCommandOutput = await deps.db.send(
          new BatchGetCommand({
            RequestItems: {
              [deps.table]: { Keys: pending, ProjectionExpression: "#id, #topic", ExpressionAttributeNames: { "#id": "id", "#topic": "topic" } },
            },
          }),
        );
        for (const item of out.Responses?.[deps.table] ?? []) {
          if (typeof item.topic === "string") found.push({ id: Number(item.id), topic: item.topic });
        }
        pending = (out.UnprocessedKeys?.[deps.table]?.Keys ?? []) as Record<string, unknown>[];
      }
      return found;
    }),
  );
  return results.flat();
}

/**
 * The topics of a stream the user may read, newest first.
 *
 * Access as Zulip's `access_stream_by_id` (no administrator exemption).
 * When the user may read the stream's whole history (public streams for
 * non-guests, shared-history streams for subscribers), topics come from the
 * stream's messages; otherwise only from messages the user received (their
 * UserMessage rows for the stream's recipient, `keys.userMessageByRecipient`,
 * then a projected BatchGet of those messages' topics). Both paths examine
 * at most {@link TOPIC_SCAN_LIMIT} messages.
 * @throws InvalidChannelIdError 400 `Invalid channel ID` for a missing, archived or invisible stream
 */
export async function getStreamTopics(
  deps: Db,
  realm: RealmRecord,
  user: UserRecord,
  streamId: number,
): Promise<TopicSummary[]> {
  const { stream, sub } = await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelIdError() });
  if (canReadStreamHistory(user, stream, sub)) {
    const items = await queryNewest(
      deps,
      keys.messageByStream(stream.stream_id).gsi1pk,
      "gsi1sk, #topic",
      { "#topic": "topic" },
      TOPIC_SCAN_LIMIT,
    );
    return summarizeTopics(
      items
        .filter((i) => typeof i.topic === "string")
        .map((i) => ({ id: unpad(String(i.gsi1sk)), topic: String(i.topic) })),
    );
  }
  const rows = await queryNewest(
    deps,
    keys.userMessageByRecipient(user.user_id, stream.recipient_id).gsi1pk,
    "gsi1sk",
    {},
    TOPIC_SCAN_LIMIT,
  );
  const ids = rows.map((r) => unpad(String(r.gsi1sk)));
  return summarizeTopics(await topicsOfMessages(deps, ids));
}
