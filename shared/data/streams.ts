import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../deps.js";
import { recordOf } from "./items.js";
import { keys } from "./keys.js";

/**
 * A stream (channel) as stored, one item in its realm's partition; its
 * lower-cased name is claimed by a unique-name item (`keys.streamByName`).
 * Wire shapes come from `shared/wire/stream.ts`.
 */
export interface StreamRecord {
  realm_id: number;
  stream_id: number;
  name: string;
  /** Markdown source. */
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  /** 1 everyone, 2 administrators, 3 full members, 4 moderators. */
  stream_post_policy: number;
  /** null: the realm's setting; -1: forever. */
  message_retention_days: number | null;
  /** UNIX seconds. */
  date_created: number;
  first_message_id: number | null;
  /** The stream's recipient ID (messages' `recipient_id`). */
  recipient_id: number;
  creator_id: number | null;
  /** Archived streams are kept with `deactivated: true` and are invisible. */
  deactivated: boolean;
  /** Whether new users are subscribed to it (default streams). */
  is_default: boolean;
}

type Db = Pick<Deps, "db" | "table">;

/** Reads one stream by ID (archived ones included), or undefined. One round trip. */
export async function getStream(deps: Db, realmId: number, streamId: number): Promise<StreamRecord | undefined> {
  const out = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: keys.stream(realmId, streamId), ConsistentRead: true }),
  );
  return out.Item ? recordOf<StreamRecord>(out.Item) : undefined;
}

/** Resolves a stream name (case-insensitive) to its ID through the unique-name item, or undefined. */
export async function getStreamIdByName(deps: Db, realmId: number, name: string): Promise<number | undefined> {
  const out = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: keys.streamByName(realmId, name), ConsistentRead: true }),
  );
  return out.Item ? Number(out.Item.stream_id) : undefined;
}

/** Lists every stream of a realm, archived ones included, in ID order. */
export async function listRealmStreams(deps: Db, realmId: number): Promise<StreamRecord[]> {
  const streams: StreamRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.streamPrefix },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) streams.push(recordOf<StreamRecord>(item));
    start = out.LastEvaluatedKey;
  } while (start);
  return streams;
}
