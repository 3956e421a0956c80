import type { FilesDeps } from "../../deps.js";
import type { JobOf, JobPayload } from "../../deferred/jobs.js";
import { hashApiKey } from "../../auth/api-key.js";
import type { MessageRecord } from "../../data/records/message.js";
import { getRealm } from "../../data/realms.js";
import {
  deleteMessagesBatch,
  deleteRealmLogsBatch,
  deleteRealmPartitionBatch,
  deleteRealmQueuesBatch,
  deleteRealmRecord,
  deleteUserDataBatch,
  realmMessagesAfter,
  realmUsersAfter,
  type DoomedMessage,
  type DoomedRealmFiles,
} from "../../data/realm-deletion.js";
import { messageTerms } from "../../narrow/search.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { avatarObjectKeys, thumbnailObjectKey } from "../../storage/object-keys.js";

/**
 * Deleting an organization's data, as a chain of deferred `delete_realm`
 * jobs (Zulip's `do_delete_demo_organization` / `do_scrub_realm`, which
 * remove the realm's rows; here docs/data-model.md, "Deleting an
 * organization", lists where each item type is found). Each job does one
 * bounded batch of one phase, then enqueues the next job with its cursor:
 *
 * 1. `queues` — event queues (their realm index), so nothing polls any more;
 * 2. `messages` — by the messages' realm index, ascending: search postings,
 *    topic-policy reverse items, recipients chunks, the message items;
 * 3. `users` — by the realm partition's users: each user's own partitions
 *    (rows, subscriptions, event log, drafts, mutes, topic policies), alert
 *    words and API key item;
 * 4. `logs` — the realm's public-stream event log and presence partition;
 * 5. `realm` — the realm partition (everything but the realm item, with the
 *    recipient records of streams and conversations);
 * 6. `finish` — subdomain claim, scheduled-deletion entry, realm item.
 *
 * Files go with the items that name them: uploaded avatars with their
 * users, attachments' files and custom emoji images with the realm
 * partition's batches, the uploaded icon and logos with the realm item.
 *
 * The realm partition goes last because it is how every other phase finds
 * its items. A job only runs for a realm marked `deletion_started_at` (set
 * with `deactivated` by `claimRealmDeletion`), so no job can delete a live
 * organization. Jobs are idempotent: a retried or duplicated job re-reads
 * what is left.
 */

/** A phase (`DELETE_REALM_PHASES` lists them in order). */
export type DeleteRealmPhase = DeleteRealmPayload["phase"];

/** Payload of a `delete_realm` job. */
export type DeleteRealmPayload = JobPayload<"delete_realm">;

/**
 * How much one job does: at most this many queue, log or realm-partition
 * items, messages, or users (whose own partitions' items share one budget
 * of `userItems` per job).
 */
export const DELETE_REALM_BATCH = { queues: 500, messages: 25, users: 5, userItems: 2000, logs: 2000, realm: 1000 } as const;

/** The job that starts deleting a realm (enqueue it after `claimRealmDeletion`). */
export function deleteRealmJob(realmId: number): JobOf<"delete_realm"> {
  return { kind: "delete_realm", payload: { realm_id: realmId, phase: "queues" } };
}

/** Every term a message was indexed under: its current topic and content and each earlier one in its edit history. */
function everIndexedTerms(message: MessageRecord): string[] {
  const texts: string[] = [message.topic, message.content];
  for (const entry of message.edit_history ?? []) {
    if (typeof entry.prev_content === "string") texts.push(entry.prev_content);
    if (typeof entry.prev_topic === "string") texts.push(entry.prev_topic);
  }
  return messageTerms(texts.join("\n"), "");
}

/** The (stream, topic) pairs a message was in, for their policy reverse items. */
function everTopics(message: MessageRecord): { streamId: number; topic: string }[] {
  if (message.stream_id === undefined) return [];
  const out = [{ streamId: message.stream_id, topic: message.topic }];
  for (const entry of message.edit_history ?? []) {
    const streamId = typeof entry.prev_stream_id === "number" ? entry.prev_stream_id : message.stream_id;
    const topic = typeof entry.prev_topic === "string" ? entry.prev_topic : message.topic;
    out.push({ streamId, topic });
  }
  return out;
}

/** A user's uploaded avatar objects (both sizes of the current version), none for a gravatar. */
function uploadedAvatarKeys(user: UserRecord): string[] {
  if (user.avatar_source !== "U") return [];
  return [true, false].map((medium) => avatarObjectKeys.avatar(user.realm_id, user.user_id, user.avatar_version, medium));
}

/** The organization's uploaded icon and logos (current versions; replaced ones are deleted when replaced). */
function uploadedRealmImageKeys(realm: RealmRecord): string[] {
  const kinds = ["icon", "logo", "night_logo"] as const;
  return kinds.filter((kind) => realm[`${kind}_source`] === "U").map((kind) => avatarObjectKeys.realmImage(realm.id, kind, realm[`${kind}_version`] ?? 1));
}

function next(payload: DeleteRealmPayload, phase: DeleteRealmPhase): DeleteRealmPayload {
  return { realm_id: payload.realm_id, phase };
}

/** One batch of one phase; returns the next job's payload, or undefined when the realm is gone. */
async function step(deps: FilesDeps, payload: DeleteRealmPayload): Promise<DeleteRealmPayload | undefined> {
  const realmId = payload.realm_id;
  switch (payload.phase) {
    case "queues": {
      const deleted = await deleteRealmQueuesBatch(deps, realmId, DELETE_REALM_BATCH.queues);
      return deleted < DELETE_REALM_BATCH.queues ? next(payload, "messages") : payload;
    }
    case "messages": {
      const messages = await realmMessagesAfter(deps, realmId, payload.after_id ?? 0, DELETE_REALM_BATCH.messages);
      if (messages.length === 0) return next(payload, "users");
      const doomed: DoomedMessage[] = messages.map((m) => ({ messageId: m.id, terms: everIndexedTerms(m), topics: everTopics(m) }));
      await deleteMessagesBatch(deps, realmId, doomed);
      return { ...payload, after_id: messages[messages.length - 1]!.id };
    }
    case "users": {
      const users = await realmUsersAfter(deps, realmId, payload.after_id ?? 0, DELETE_REALM_BATCH.users);
      if (users.length === 0) return next(payload, "logs");
      // Uploaded avatars go with their users (idempotent when a user takes more than one job).
      await deps.files.delete(users.flatMap(uploadedAvatarKeys));
      let left: number = DELETE_REALM_BATCH.userItems;
      for (const user of users) {
        const { done, deleted } = await deleteUserDataBatch(deps, user.user_id, hashApiKey(user.api_key), left);
        left -= deleted;
        // Not done (the job's item budget is spent): the same user again in the next job.
        if (!done) return { ...payload, after_id: user.user_id - 1 };
      }
      return { ...payload, after_id: users[users.length - 1]!.user_id };
    }
    case "logs": {
      const deleted = await deleteRealmLogsBatch(deps, realmId, DELETE_REALM_BATCH.logs);
      return deleted < DELETE_REALM_BATCH.logs ? next(payload, "realm") : payload;
    }
    case "realm": {
      // Uploaded files and custom emoji images go with their items (Zulip's realm deletion removes the realm's files).
      const deleteFiles = (files: DoomedRealmFiles) =>
        deps.files.delete([
          ...files.uploadPathIds,
          ...files.thumbnails.flatMap((t) => t.names.map((name) => thumbnailObjectKey(t.pathId, name))),
          ...files.emoji.flatMap((e) => [
            avatarObjectKeys.emoji(realmId, e.file_name),
            ...(e.is_animated ? [avatarObjectKeys.emojiStill(realmId, e.file_name)] : []),
          ]),
        ]);
      const last = await deleteRealmPartitionBatch(deps, realmId, payload.after_key, DELETE_REALM_BATCH.realm, deleteFiles);
      return last === undefined ? next(payload, "finish") : { ...payload, after_key: last };
    }
    case "finish": {
      const realm = await getRealm(deps, realmId);
      if (realm) {
        await deps.files.delete(uploadedRealmImageKeys(realm));
        await deleteRealmRecord(deps, realm);
      }
      deps.log.info("organization deleted", { realmId });
      return undefined;
    }
  }
}

/**
 * Runs one `delete_realm` job: one bounded batch of its phase, then
 * enqueues the job that continues (same phase with a cursor, or the next
 * phase). Does nothing for a realm that is gone or not marked for deletion.
 * @throws Error on a storage failure (SQS retries the job; every step is idempotent)
 */
export async function runDeleteRealm(deps: FilesDeps, payload: DeleteRealmPayload): Promise<void> {
  const realm = await getRealm(deps, payload.realm_id);
  if (!realm || realm.deletion_started_at === undefined) return;
  const following = await step(deps, payload);
  if (following) await deps.deferred.enqueue([{ kind: "delete_realm", payload: following }]);
}
