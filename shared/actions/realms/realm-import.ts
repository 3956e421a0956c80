import { randomBytes } from "node:crypto";
import pMap from "p-map";
import { generateApiKey, hashApiKey } from "../../auth/api-key.js";
import type { FilesDeps } from "../../deps.js";
import { JsonableError } from "../../errors.js";
import { putAttachment, putAttachmentClaims } from "../../data/attachments.js";
import { allocateIds } from "../../data/counters.js";
import { putMessage, putRowsAndRecipients } from "../../data/messages.js";
import { putNewRealm, realmBySubdomain, updateRealmFields } from "../../data/realms.js";
import type { AttachmentRecord } from "../../data/records/attachment.js";
import type { ReactionRecord } from "../../data/records/reaction.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import type { UserRecord } from "../../data/records/user.js";
import { claimFirstMessageId, putNewStream } from "../../data/streams.js";
import { putSubscriptions } from "../../data/subscriptions.js";
import { putUserMessages } from "../../data/user-messages.js";
import { putNewUser } from "../../data/users.js";
import { Role } from "../../domain/roles.js";
import { THUMBNAIL_ACCEPT_IMAGE_TYPES } from "../../domain/thumbnails.js";
import { bareContentType, buildUploadPathId, uploadContentDisposition } from "../../domain/uploads.js";
import { inspectImage } from "../../images/image.js";
import { indexMessageJob } from "../messages/deferred.js";
import { thumbnailJob } from "../uploads/thumbnail-job.js";
import { NOTIFICATION_BOT_EMAIL, ensureNotificationBot } from "../users/notification-bot.js";
import { RECIPIENT_STREAM, type Row } from "./export-tables.js";
import { openExportArchive, tableOf, type ExportArchive, type ImportSource } from "./import-archive.js";
import { importEmoji, importUserGroups } from "./import-extras.js";
import { emptyMaps, type ImportMaps } from "./import-remap.js";
import { importedMessage, importedReaction, importedRealm, importedStream, importedSubscription, importedUser, storedFlagsOfMask } from "./import-records.js";

export { importSourceOf, type ImportSource } from "./import-archive.js";

/** What an import wrote. */
export interface ImportResult {
  realm: RealmRecord;
  /** The first active human owner (who sets passwords for the others), if the archive has one. */
  owner: UserRecord | undefined;
  users: number;
  streams: number;
  messages: number;
  /** Messages of the archive not imported: not to a stream (direct messages), or by a sender not in it. */
  skippedMessages: number;
  attachments: number;
  emoji: number;
}

/** Writes in flight at once (each a DynamoDB or S3 request). */
const CONCURRENCY = 8;
/** `index_message` jobs per enqueue. */
const JOB_BATCH = 100;

const num = (v: unknown): number => (typeof v === "number" ? v : Number.NaN);

/**
 * Restores a data export into a new organization (Zulip's `manage.py
 * import` / `do_import_realm`): the organization and its settings, users
 * (fresh API keys, no passwords), user groups, custom emoji (images copied),
 * streams, subscriptions (colors and properties), stream messages (content
 * and rendering with IDs and upload links rewritten, topic, sender, time,
 * edit history, reactions), each user's flags on them, and the uploads they
 * link (bytes copied to the new organization's paths, claimed by the new
 * messages). Every object gets a new ID from the deployment's counters.
 * Messages are written as sending writes them (message item, UserMessage
 * rows with the recipients item, a stream's first message, `index_message`
 * jobs; `thumbnail` jobs for images), without events: the organization is
 * new and created deactivated until the import ends, so a failed import
 * leaves an organization nobody can use (delete it and try again).
 * Direct messages and messages of senders the archive lacks are skipped.
 *
 * Cost: one pass over the message files to count, one to write (a PutItem
 * per message), one over the UserMessage files (BatchWriteItem), one S3 PUT
 * per file; memory holds the ID maps, the reactions and each message's
 * recipients.
 * @param subdomain the new organization's subdomain (checked by the caller's rules)
 * @throws JsonableError 400 `Subdomain already in use`, `Cannot read <path>`, `No export at <key>`,
 *   `Not a Zulip data export: …`, `Email '<email>' already in use` (an archive listing an address twice)
 */
export async function doImportRealm(deps: FilesDeps, source: ImportSource, subdomain: string): Promise<ImportResult> {
  if (await realmBySubdomain(deps, subdomain)) throw new JsonableError("Subdomain already in use");
  const archive = await openExportArchive(deps, source);
  try {
    return await importArchive(deps, archive, subdomain);
  } finally {
    await archive.close();
  }
}

/** Allocates a block of `n` IDs and maps `oldIds` (in their order) onto it. */
async function mapOnto(deps: FilesDeps, counter: string, oldIds: number[], map: Map<number, number>): Promise<void> {
  if (oldIds.length === 0) return;
  const first = await allocateIds(deps, counter, oldIds.length);
  oldIds.forEach((id, i) => map.set(id, first + i));
}

async function importArchive(deps: FilesDeps, archive: ExportArchive, subdomain: string): Promise<ImportResult> {
  const t = archive.realm;
  const realmRow = t.zerver_realm![0]!;
  const maps: ImportMaps = emptyMaps(num(realmRow.id), await allocateIds(deps, "realm"));
  const now = Math.floor(deps.clock.now() / 1000);
  const userRows = t.zerver_userprofile!.filter((u) => typeof u.id === "number");
  const streamRows = t.zerver_stream!.filter((s) => typeof s.id === "number");
  const streamOfRecipient = new Map(
    t.zerver_recipient!.filter((r) => r.type === RECIPIENT_STREAM).map((r) => [num(r.id), num(r.type_id)] as const),
  );
  await mapOnto(deps, "user", userRows.map((u) => num(u.id)), maps.users);
  await mapOnto(deps, "stream", streamRows.map((s) => num(s.id)), maps.streams);
  await mapOnto(deps, "recipient", streamRows.map((s) => num(s.recipient)), maps.recipients);
  await mapOnto(deps, "user_group", (t.zerver_usergroup ?? []).filter((g) => g.is_system_group !== true).map((g) => num(g.id)), maps.groups);
  await mapOnto(deps, "realm_emoji", (t.zerver_realmemoji ?? []).map((e) => num(e.id)), maps.emoji);

  // Uploads: new paths first, so that message links can be rewritten as messages are written.
  const attachmentRows = await tableOf(archive, "attachment.json", "zerver_attachment");
  for (const a of attachmentRows) {
    const oldPath = String(a.path_id ?? "");
    const name = oldPath.split("/").slice(3).join("/");
    if (!name) continue;
    maps.paths.set(oldPath, buildUploadPathId(maps.newRealmId, { prefix: randomBytes(1).toString("hex"), name: randomBytes(18).toString("base64url") }, name));
  }

  const realm = importedRealm(realmRow, maps, subdomain, now);
  if (!(await putNewRealm(deps, realm))) throw new JsonableError("Subdomain already in use");

  // Users, with fresh API keys and no passwords.
  const users = new Map<number, UserRecord>();
  await pMap(userRows, async (row) => {
    const apiKey = generateApiKey();
    const user = importedUser(row, maps, apiKey, now);
    if (!(await putNewUser(deps, user, hashApiKey(apiKey)))) throw new JsonableError(`Email '${user.delivery_email}' already in use`);
    users.set(user.user_id, user);
  }, { concurrency: CONCURRENCY });
  // Messages of the system bot: the new organization's own Notification Bot.
  const notificationBots = (t.zerver_userprofile_crossrealm ?? []).filter((b) => b.email === NOTIFICATION_BOT_EMAIL);
  if (notificationBots.length > 0) {
    const bot = await ensureNotificationBot(deps, realm);
    users.set(bot.user_id, bot);
    for (const b of notificationBots) maps.users.set(num(b.id), bot.user_id);
  }

  await importUserGroups(deps, realm, maps, t);
  const emoji = await importEmoji(deps, archive, realm, maps, t.zerver_realmemoji ?? []);

  // Streams and subscriptions.
  const defaultStreamIds = new Set((t.zerver_defaultstream ?? []).map((d) => num(d.stream)));
  const streams = new Map<number, StreamRecord>();
  for (const row of streamRows) {
    if (!maps.recipients.has(num(row.recipient))) maps.recipients.set(num(row.recipient), await allocateIds(deps, "recipient"));
    const stream = importedStream(row, maps, defaultStreamIds, now);
    if (!(await putNewStream(deps, stream))) throw new JsonableError(`Channel '${stream.name}' appears twice in the archive`);
    streams.set(num(row.id), stream);
  }
  const subs = (t.zerver_subscription ?? []).map((s) => importedSubscription(s, maps, streamOfRecipient)).filter((s) => s !== undefined);
  await putSubscriptions(deps, subs);

  // Messages: IDs allocated in one block, in the archive's order, so links between messages can be rewritten.
  const importable = (m: Row) => streamOfRecipient.has(num(m.recipient)) && maps.users.has(num(m.sender));
  let total = 0;
  const oldMessageIds: number[] = [];
  for (const file of archive.messageFiles) {
    for (const m of await tableOf(archive, file, "zerver_message")) {
      total++;
      if (importable(m)) oldMessageIds.push(num(m.id));
    }
  }
  oldMessageIds.sort((a, b) => a - b);
  await mapOnto(deps, "message", oldMessageIds, maps.messages);
  const reactionsOf = new Map<number, Row[]>();
  for (const r of t.zerver_reaction ?? []) {
    const list = reactionsOf.get(num(r.message)) ?? [];
    list.push(r);
    reactionsOf.set(num(r.message), list);
  }
  const timestamps = new Map<number, number>();
  const firstInStream = new Map<number, number>();
  for (const file of archive.messageFiles) {
    const rows = (await tableOf(archive, file, "zerver_message")).filter(importable);
    const written = await pMap(rows, async (row) => {
      const stream = streams.get(streamOfRecipient.get(num(row.recipient))!)!;
      const reactions: ReactionRecord[] = (reactionsOf.get(num(row.id)) ?? []).flatMap((r) => {
        const user = users.get(maps.users.get(num(r.user_profile)) ?? -1);
        return user ? [importedReaction(r, maps, user, realm, deps.config)] : [];
      });
      const message = importedMessage(row, { maps, realm, sender: users.get(maps.users.get(num(row.sender))!)!, stream, reactions, config: deps.config });
      await putMessage(deps, message);
      timestamps.set(message.id, message.timestamp);
      const first = firstInStream.get(stream.stream_id);
      if (first === undefined || message.id < first) firstInStream.set(stream.stream_id, message.id);
      return message.id;
    }, { concurrency: CONCURRENCY });
    for (let i = 0; i < written.length; i += JOB_BATCH) {
      await deps.deferred.enqueue(written.slice(i, i + JOB_BATCH).map((id) => indexMessageJob(realm.id, id)));
    }
  }
  await pMap([...firstInStream], ([streamId, id]) => claimFirstMessageId(deps, realm.id, streamId, id), { concurrency: CONCURRENCY });

  // Each user's flags: the rows, then each message's recipients item. Zulip's own exports keep the rows in the message files.
  const recipients = new Map<number, number[]>();
  for (const file of [...archive.messageFiles, ...archive.userMessageFiles]) {
    const rows: UserMessageRecord[] = [];
    for (const r of await tableOf(archive, file, "zerver_usermessage")) {
      const userId = maps.users.get(num(r.user_profile));
      const messageId = maps.messages.get(num(r.message));
      if (userId === undefined || messageId === undefined) continue;
      rows.push({ user_id: userId, message_id: messageId, is_private: false, flags: storedFlagsOfMask(num(r.flags_mask) || 0) });
      const list = recipients.get(messageId) ?? [];
      list.push(userId);
      recipients.set(messageId, list);
    }
    await putUserMessages(deps, rows);
  }
  await pMap([...recipients], ([id, userIds]) => putRowsAndRecipients(deps, id, [], [...new Set(userIds)].sort((a, b) => a - b)), { concurrency: CONCURRENCY });

  const attachments = await importAttachments(deps, archive, realm, maps, attachmentRows, timestamps);

  await updateRealmFields(deps, realm.id, { deactivated: false });
  const imported = { ...realm, deactivated: false };
  const owner = [...users.values()]
    .filter((u) => u.role === Role.OWNER && u.is_active && !u.is_bot)
    .sort((a, b) => a.user_id - b.user_id)[0];
  return { realm: imported, owner, users: userRows.length, streams: streams.size, messages: oldMessageIds.length, skippedMessages: total - oldMessageIds.length, attachments, emoji };
}

/**
 * The archive's uploads into the new organization: each file's bytes at
 * its new path, its attachment record (counted in the upload space, claimed
 * by the imported messages that link it, with their claim items), and a
 * `thumbnail` job for images. Files missing from the archive are skipped.
 * @returns how many files were imported
 */
async function importAttachments(
  deps: FilesDeps,
  archive: ExportArchive,
  realm: RealmRecord,
  maps: ImportMaps,
  rows: Row[],
  timestamps: Map<number, number>,
): Promise<number> {
  const images: string[] = [];
  const records = await pMap(rows, async (row): Promise<AttachmentRecord | undefined> => {
    const oldPath = String(row.path_id ?? "");
    const pathId = maps.paths.get(oldPath);
    const owner = maps.users.get(num(row.owner));
    const bytes = pathId ? await archive.bytes(`uploads/${oldPath}`) : undefined;
    if (!pathId || owner === undefined || !bytes) return undefined;
    const fileName = typeof row.file_name === "string" ? row.file_name : pathId.split("/").pop()!;
    const contentType = typeof row.content_type === "string" && row.content_type ? row.content_type : "application/octet-stream";
    const [image] = await Promise.all([
      THUMBNAIL_ACCEPT_IMAGE_TYPES.has(bareContentType(contentType)) ? inspectImage(bytes) : Promise.resolve(undefined),
      deps.files.put(pathId, bytes, { contentType, contentDisposition: uploadContentDisposition(fileName, contentType) }),
    ]);
    const messages = (Array.isArray(row.messages) ? row.messages : [])
      .map((id) => maps.messages.get(num(id)))
      .filter((id): id is number => id !== undefined && timestamps.has(id))
      .sort((a, b) => a - b)
      .map((id) => ({ id, date_sent: timestamps.get(id)! * 1000 }));
    if (image) images.push(pathId);
    return {
      id: 0,
      realm_id: realm.id,
      owner_id: owner,
      file_name: fileName,
      path_id: pathId,
      size: bytes.length,
      content_type: contentType,
      create_time: typeof row.create_time === "number" ? row.create_time : deps.clock.now(),
      messages,
      is_realm_public: row.is_realm_public === true,
      is_web_public: row.is_web_public === true,
      ...(image ? { image: { width: image.width, height: image.height, frames: image.frames, thumbnails: [] } } : {}),
    };
  }, { concurrency: CONCURRENCY });
  const kept = records.filter((r) => r !== undefined);
  if (kept.length === 0) return 0;
  const first = await allocateIds(deps, "attachment", kept.length);
  await pMap(kept, async (record, i) => {
    record.id = first + i;
    await putAttachment(deps, record, null);
    await putAttachmentClaims(deps, record);
  }, { concurrency: CONCURRENCY });
  if (images.length > 0) await deps.deferred.enqueue([thumbnailJob(realm.id, images)]);
  return kept.length;
}
