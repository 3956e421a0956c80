import { randomBytes } from "node:crypto";
import type { FilesDeps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import { getRealm } from "../../data/realms.js";
import { realmMessagesAfter } from "../../data/realm-deletion.js";
import { listRealmExports, realmAttachmentPages, updateRealmExport, userMessageRowPages } from "../../data/realm-exports.js";
import { listRealmEmoji } from "../../data/realm-emoji.js";
import { listRealmStreams } from "../../data/streams.js";
import { listUserSubscriptions } from "../../data/subscriptions.js";
import { listRealmUserGroups } from "../../data/user-groups.js";
import { listRealmUsers } from "../../data/users.js";
import { avatarObjectKeys, exportObjectKey } from "../../storage/object-keys.js";
import { openTarballUpload, type TarballUpload } from "../../storage/tarball-upload.js";
import {
  attachmentRow,
  flagsMask,
  messageRow,
  reactionRows,
  realmEmojiRow,
  realmRow,
  RECIPIENT_STREAM,
  streamRow,
  subscriptionRow,
  userGroupRow,
  userRow,
  type Row,
} from "./export-tables.js";
import { MAX_EXPORT_MESSAGES, notifyRealmExport } from "./realm-export.js";

/** Messages per `messages-NNNNNN.json` file (Zulip's `MESSAGE_BATCH_CHUNK_SIZE`). */
export const EXPORT_MESSAGE_CHUNK = 1000;
/** UserMessage rows per `usermessages-NNNNNN.json` file. */
export const EXPORT_USER_MESSAGE_CHUNK = 10_000;

const json = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value, null, 1));
const seq = (n: number): string => String(n).padStart(6, "0");
const lowerAlnum = (bytes: number): string =>
  [...randomBytes(bytes)].map((b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");

/**
 * Writes the archive of a public export (Zulip's `do_export_realm` with
 * `public_only`): what every member could read — the organization, its
 * users (without passwords or API keys), streams, subscriptions, custom
 * emoji, user groups, and the messages of public streams with their
 * reactions, their users' flags and the files they link. Private streams
 * are listed, their messages and files are not; direct messages are not.
 *
 * Layout (Zulip's): `realm.json` (the `zerver_*` tables but messages),
 * `messages-000001.json`… (`zerver_message`, 1,000 a file, by ID),
 * `usermessages-000001.json`… (`zerver_usermessage`; Zulip keeps the rows
 * in the message files, ours are read user by user), `attachment.json`,
 * `uploads/records.json` with the files under `uploads/<path_id>`,
 * `emoji/records.json` with the images under `emoji/<key>`.
 *
 * Memory stays bounded whatever the organization's size: messages are
 * read 1,000 at a time from the realm's message index and rows a page at a
 * time from each user's partition, and the archive streams into a multipart
 * upload. Held for the whole run: the exported message IDs and the
 * reactions (for `realm.json`, written last).
 * @returns the object's key and size
 * @throws Error when the organization has more than {@link MAX_EXPORT_MESSAGES} messages, or on a storage failure
 */
async function writeExport(deps: FilesDeps, realmId: number, out: TarballUpload): Promise<void> {
  const realm = await getRealm(deps, realmId);
  if (!realm) throw new Error(`realm ${realmId} is gone`);
  const [users, streams, emoji, groups] = await Promise.all([
    listRealmUsers(deps, realmId),
    listRealmStreams(deps, realmId),
    listRealmEmoji(deps, realmId),
    listRealmUserGroups(deps, realmId),
  ]);
  const publicStreams = new Set(streams.filter((s) => !s.invite_only).map((s) => s.stream_id));
  const recipientOfStream = new Map(streams.map((s) => [s.stream_id, s.recipient_id]));

  // Messages of public streams, 1,000 a file.
  const exported = new Set<number>();
  const reactions: Row[] = [];
  let reactionId = 0;
  let after = 0;
  let file = 0;
  let seen = 0;
  for (;;) {
    const page = await realmMessagesAfter(deps, realmId, after, EXPORT_MESSAGE_CHUNK);
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    seen += page.length;
    if (seen > MAX_EXPORT_MESSAGES) throw new Error(`more than ${MAX_EXPORT_MESSAGES} messages`);
    const rows = page.filter((m) => m.stream_id !== undefined && publicStreams.has(m.stream_id));
    for (const m of rows) {
      exported.add(m.id);
      reactions.push(...reactionRows(m, () => ++reactionId));
    }
    if (rows.length > 0) await out.add(`messages-${seq(++file)}.json`, json({ zerver_message: rows.map(messageRow) }));
  }

  // Every user's flags on the exported messages, user by user.
  let rowsFile = 0;
  let userMessageId = 0;
  let batch: Row[] = [];
  const flushRows = async () => {
    if (batch.length > 0) await out.add(`usermessages-${seq(++rowsFile)}.json`, json({ zerver_usermessage: batch }));
    batch = [];
  };
  const subscriptions: Row[] = [];
  for (const user of users) {
    for (const sub of await listUserSubscriptions(deps, user.user_id)) {
      const recipient = recipientOfStream.get(sub.stream_id);
      if (recipient !== undefined) subscriptions.push(subscriptionRow(subscriptions.length + 1, sub, recipient));
    }
    for await (const page of userMessageRowPages(deps, user.user_id)) {
      for (const row of page) {
        if (!exported.has(row.message_id)) continue;
        batch.push({ id: ++userMessageId, user_profile: row.user_id, message: row.message_id, flags_mask: flagsMask(row.flags) });
        if (batch.length >= EXPORT_USER_MESSAGE_CHUNK) await flushRows();
      }
    }
  }
  await flushRows();

  // Files that exported messages link, with their bytes.
  const attachments: Row[] = [];
  const uploadRecords: Row[] = [];
  for await (const page of realmAttachmentPages(deps, realmId)) {
    for (const a of page) {
      const messageIds = a.messages.map((m) => m.id).filter((id) => exported.has(id));
      if (messageIds.length === 0) continue;
      const bytes = await deps.files.get(a.path_id);
      if (!bytes) continue;
      attachments.push(attachmentRow(a, messageIds));
      uploadRecords.push({ path: a.path_id, s3_path: a.path_id, realm_id: realmId, user_profile_id: a.owner_id, content_type: a.content_type, size: bytes.length, last_modified: a.create_time });
      await out.add(`uploads/${a.path_id}`, bytes);
    }
  }
  await out.add("attachment.json", json({ zerver_attachment: attachments }));
  await out.add("uploads/records.json", json(uploadRecords));

  const emojiRecords: Row[] = [];
  for (const e of emoji) {
    const key = avatarObjectKeys.emoji(realmId, e.file_name);
    const bytes = await deps.files.get(key);
    if (!bytes) continue;
    emojiRecords.push({ realm_id: realmId, path: key, s3_path: key, file_name: e.file_name, name: e.name, user_profile_id: e.author_id });
    await out.add(`emoji/${key}`, bytes);
  }
  await out.add("emoji/records.json", json(emojiRecords));

  const systemBots = users.filter((u) => u.is_system_bot);
  await out.add(
    "realm.json",
    json({
      zerver_realm: [realmRow(realm)],
      zerver_userprofile: users.filter((u) => !u.is_system_bot).map(userRow),
      zerver_userprofile_crossrealm: systemBots.map((u) => ({ id: u.user_id, email: u.delivery_email, email_domain: u.delivery_email.split("@")[1] ?? "" })),
      zerver_stream: streams.map(streamRow),
      zerver_defaultstream: streams.filter((s) => s.is_default).map((s, i) => ({ id: i + 1, realm: realmId, stream: s.stream_id })),
      zerver_recipient: streams.map((s) => ({ id: s.recipient_id, type: RECIPIENT_STREAM, type_id: s.stream_id })),
      zerver_subscription: subscriptions,
      zerver_reaction: reactions,
      zerver_realmemoji: emoji.map(realmEmojiRow),
      zerver_usergroup: groups.groups.map(userGroupRow),
      zerver_usergroupmembership: groups.groups.flatMap((g) => g.members.map((user) => ({ user_group: g.id, user_profile: user }))),
      zerver_groupgroupmembership: groups.groups.flatMap((g) => g.direct_subgroup_ids.map((sub) => ({ supergroup: g.id, subgroup: sub }))),
    }),
  );
}

/**
 * Runs a `realm_export` job (Zulip's `deferred_work` `realm_export`
 * handler): writes the archive ({@link writeExport}) to
 * `exports/<realm_id>/<random>/zulip-export-<random>.tar.gz`, records its
 * path, and sends the administrators `realm_export`. A failure marks the
 * export failed (and is not retried, as Zulip marks a retried export
 * failed); a job for an export that is no longer pending does nothing.
 */
export async function runRealmExport(deps: FilesDeps, payload: JobPayload<"realm_export">): Promise<void> {
  const { realm_id: realmId, export_id: exportId } = payload;
  const realm = await getRealm(deps, realmId);
  const record = (await listRealmExports(deps, realmId)).find((e) => e.id === exportId);
  if (!realm || !record || record.export_path !== undefined || record.failed_timestamp !== undefined || record.deleted_timestamp !== undefined) return;
  const key = exportObjectKey(realmId, randomBytes(18).toString("base64url"), lowerAlnum(8));
  let out: TarballUpload | undefined;
  const started = deps.clock.now();
  try {
    out = await openTarballUpload(deps.files, key);
    await writeExport(deps, realmId, out);
    const size = await out.finish();
    if (!(await updateRealmExport(deps, realmId, exportId, { export_path: key, size }, "pending"))) {
      await deps.files.delete([key]);
      return;
    }
    deps.log.info("data export completed", { realmId, exportId, size, ms: deps.clock.now() - started });
  } catch (err) {
    deps.log.error("data export failed", { realmId, exportId, error: err instanceof Error ? err.message : String(err) });
    await out?.abort().catch(() => {});
    await updateRealmExport(deps, realmId, exportId, { failed_timestamp: deps.clock.now() / 1000 }, "pending");
  }
  await notifyRealmExport(deps, realm);
}

/** Runs a `delete_export_tarball` job: removes a deleted export's tarball (Zulip's `delete_export_tarball`). */
export async function runDeleteExportTarball(deps: FilesDeps, payload: JobPayload<"delete_export_tarball">): Promise<void> {
  await deps.files.delete([payload.export_path]);
}
