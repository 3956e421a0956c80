import type { Deps, FilesDeps } from "../../deps.js";
import type { JobOf, JobPayload } from "../../deferred/jobs.js";
import { attachmentByPath, attachmentsByPath, claimAttachment, claimedPathIds, releaseClaim } from "../../data/attachments.js";
import type { AttachmentRecord } from "../../data/records/attachment.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";
import { doDeleteAttachment } from "./attachments.js";
import { notifyAttachmentUpdate } from "./notify.js";
import { userMayAccessAttachment } from "./serve-file.js";

/** Most upload links of one message that claim attachments (Zulip has no bound; a message has at most 10,000 characters). */
export const MAX_CLAIMS_PER_MESSAGE = 100;

/** The message that claims: its ID, send time and (for a stream message) the stream's visibility. */
export interface ClaimingMessage {
  id: number;
  /** UNIX seconds. */
  dateSent: number;
  stream?: Pick<StreamRecord, "invite_only" | "is_web_public">;
}

/**
 * Links a message to the uploads its content links (Zulip's
 * `do_claim_attachments`): each path of this organization names an
 * attachment the sender owns or may already see (else it is skipped, as
 * Zulip skips it); the attachment records the message, becomes
 * realm-public / web-public with a public / web-public stream's message,
 * leaves the unclaimed sweep, and its owner's clients get an `attachment`
 * `update` event. Called only when the content links an upload, so sends
 * without one pay nothing. Round trips: one BatchGet, then the claims and
 * events in parallel (plus access checks for others' files).
 * @param pathIds path IDs the rendering found (`<realm>/<…>/<name>`)
 * @param known attachments already read for these paths (the rendering's
 *   lookups), which saves the BatchGet; a claim's conditional write still
 *   meets the stored item
 */
export async function doClaimAttachments(
  deps: Deps,
  realm: RealmRecord,
  sender: UserRecord,
  message: ClaimingMessage,
  pathIds: string[],
  known?: readonly AttachmentRecord[],
): Promise<void> {
  const own = [...new Set(pathIds.filter((p) => p.startsWith(`${realm.id}/`)))].slice(0, MAX_CLAIMS_PER_MESSAGE);
  if (own.length === 0) return;
  const knownByPath = new Map((known ?? []).map((a) => [a.path_id, a]));
  const attachments = own.every((p) => knownByPath.has(p))
    ? own.map((p) => knownByPath.get(p)!)
    : await attachmentsByPath(deps, realm.id, own);
  const flags = {
    realmPublic: message.stream !== undefined && !message.stream.invite_only,
    webPublic: message.stream?.is_web_public === true,
  };
  await Promise.all(
    attachments.map(async (attachment) => {
      if (attachment.messages.some((m) => m.id === message.id)) return;
      if (attachment.owner_id !== sender.user_id && !(await userMayAccessAttachment(deps, realm, sender, attachment))) return;
      const claimed = await claimAttachment(deps, attachment, { id: message.id, date_sent: message.dateSent * 1000 }, flags);
      if (claimed) await notifyAttachmentUpdate(deps, "update", claimed);
    }),
  );
}

/**
 * Takes a message off the attachments it claims (Zulip's
 * `check_attachment_reference_change` for links an edit removed, and the
 * attachment side of deleting a message). An attachment left without a
 * message is given to `orphan` when there is one (the message was deleted:
 * Zulip deletes a file once the last message linking it goes); otherwise it
 * returns to the unclaimed sweep. Owners get `update` (or `remove`) events.
 * @param pathIds the claims to release; all of the message's when undefined (one Query)
 * @param orphan deletes an attachment no message claims any more
 */
async function releaseAttachmentClaims(
  deps: Deps,
  realmId: number,
  messageId: number,
  pathIds: string[] | undefined,
  orphan?: (attachment: AttachmentRecord) => Promise<unknown>,
): Promise<void> {
  pathIds ??= await claimedPathIds(deps, realmId, messageId);
  await Promise.all(
    pathIds.map(async (pathId) => {
      // Optimistic: a claim racing with this release changes the list; re-read and retry.
      for (let attempt = 0; attempt < 5; attempt++) {
        const attachment: AttachmentRecord | undefined = await attachmentByPath(deps, realmId, pathId);
        if (!attachment || !attachment.messages.some((m) => m.id === messageId)) return;
        const released = await releaseClaim(deps, attachment, messageId);
        if (!released) continue;
        if (released.messages.length === 0 && orphan) await orphan(released);
        else await notifyAttachmentUpdate(deps, "update", released);
        return;
      }
      throw new Error(`Could not release the claim of message ${messageId} on ${pathId}`);
    }),
  );
}

/**
 * Follows an edit's new content (Zulip's `check_attachment_reference_change`):
 * uploads no longer linked are released (kept, back to the unclaimed
 * sweep), newly linked ones claimed. Nothing is read when neither the old
 * nor the new content links an upload.
 * @param hadAttachment the message's `has_attachment` before the edit
 * @param newPathIds the path IDs the new content links
 * @param known see {@link doClaimAttachments}
 */
export async function doUpdateAttachmentClaims(
  deps: Deps,
  realm: RealmRecord,
  editor: UserRecord,
  message: ClaimingMessage,
  hadAttachment: boolean,
  newPathIds: string[],
  known?: readonly AttachmentRecord[],
): Promise<void> {
  if (!hadAttachment && newPathIds.length === 0) return;
  const before = hadAttachment ? await claimedPathIds(deps, realm.id, message.id) : [];
  const after = new Set(newPathIds);
  const removed = before.filter((p) => !after.has(p));
  const added = newPathIds.filter((p) => !before.includes(p));
  await Promise.all([
    removed.length > 0
      ? releaseAttachmentClaims(deps, realm.id, message.id, removed)
      : Promise.resolve(),
    added.length > 0 ? doClaimAttachments(deps, realm, editor, message, added, known) : Promise.resolve(),
  ]);
}

/** The deferred job that releases a deleted message's claims (deleting files only it claimed). */
export function releaseAttachmentClaimsJob(realmId: number, messageId: number): JobOf<"release_attachment_claims"> {
  return { kind: "release_attachment_claims", payload: { realm_id: realmId, message_id: messageId } };
}

/** Runs {@link releaseAttachmentClaimsJob}: the message is gone, so orphaned files are deleted. */
export async function runReleaseAttachmentClaims(
  deps: FilesDeps,
  payload: JobPayload<"release_attachment_claims">,
): Promise<void> {
  await releaseAttachmentClaims(deps, payload.realm_id, payload.message_id, undefined, (orphan) => doDeleteAttachment(deps, orphan));
}
