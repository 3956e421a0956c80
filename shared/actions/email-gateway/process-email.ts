import { createHash } from "node:crypto";
import type { FilesDeps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import { getRealm } from "../../data/realms.js";
import { getStream } from "../../data/streams.js";
import {
  claimIncomingEmail,
  finishIncomingEmail,
  releaseIncomingEmail,
  streamByEmailToken,
  type IncomingEmailOutcome,
} from "../../data/email-gateway.js";
import { parseIncomingEmail, type IncomingEmail } from "../../mail/parse.js";
import { ObjectTooLargeError } from "../../storage/file-store.js";
import {
  attachmentLink,
  buildGatewayContent,
  EmailRefusedError,
  emailTopic,
  extractEmailBody,
} from "../../domain/email-gateway-body.js";
import { decodeStreamEmailAddress, emailGatewayDomain, type GatewayAddressOptions } from "../../domain/stream-email.js";
import { JsonableError } from "../../errors.js";
import { checkSendMessage } from "../messages/send-message.js";
import { checkUploadFile } from "../uploads/upload-file.js";
import { ensureEmailGatewayBot } from "../users/email-gateway-bot.js";

/**
 * The email gateway (Zulip's `zerver/lib/email_mirror.py`,
 * https://zulip.com/help/message-a-channel-by-email): the `incoming_email`
 * job's runner. SES receiving stores each email for the gateway's domain
 * in the files bucket under {@link INCOMING_EMAIL_PREFIX}; the job names
 * the object. The runner posts the email to the stream(s) whose address
 * it was sent to, as the realm's Email Gateway bot, through the same
 * `checkSendMessage` as `POST /messages`.
 *
 * **Once per email**: a conditional marker per object key
 * (`claimIncomingEmail`) makes a redelivered job (SQS at-least-once, S3's
 * event sent twice) post nothing more. An email the gateway refuses (too
 * large, unparsable, a virus found by SES's scan, no gateway recipient,
 * unknown token, archived stream, deactivated organization, no body) is logged and marked `refused`: never
 * retried. A failure of the service itself (DynamoDB, S3) releases the
 * marker and throws, so SQS retries the job, up to the queue's receive
 * limit, then the dead-letter queue.
 *
 * **The object**: deleted once the email is posted or refused; kept when
 * processing throws (for the retry). The bucket's lifecycle rule deletes
 * whatever is left under the prefix after {@link INCOMING_EMAIL_RETENTION_DAYS}
 * days (infra/constructs/mail-receiving.ts).
 */

/** Where SES receiving stores emails in the files bucket (no upload, avatar or export key starts so). */
export const INCOMING_EMAIL_PREFIX = "incoming-email/";

/** Days an email left in the bucket (a job that kept failing) is kept before the lifecycle rule deletes it. */
export const INCOMING_EMAIL_RETENTION_DAYS = 7;

/**
 * Largest email posted, in bytes: 10,240,000, Postfix's default
 * `message_size_limit`, which the Postfix in front of Zulip's gateway
 * applies unless its operator changed it. SES accepts up to 40 MB; a larger
 * email is refused before its body is read.
 */
export const MAX_INCOMING_EMAIL_BYTES = 10_240_000;

/** Most gateway addresses one email posts to (each a stream message); more are ignored. */
export const MAX_GATEWAY_RECIPIENTS = 10;

/** Most attachments uploaded from one email (each a file and a claim); more are ignored. */
export const MAX_EMAIL_ATTACHMENTS = 20;

/** A stream an email was addressed to, resolved and checked. */
interface GatewayTarget {
  realm: RealmRecord;
  stream: StreamRecord;
  options: GatewayAddressOptions;
}

/** What processing one email came to. */
interface Result {
  outcome: IncomingEmailOutcome;
  messageIds: number[];
  reason?: string;
}

const refused = (reason: string, messageIds: number[] = []): Result => ({ outcome: messageIds.length > 0 ? "posted" : "refused", messageIds, reason });

/**
 * Runs one `incoming_email` job: claims the object's marker, posts the
 * email, records the outcome and deletes the object (see the module's
 * notes for the rules).
 * @throws Error when the table or the bucket fails (the marker is released first, so the retry runs)
 */
export async function runIncomingEmail(deps: FilesDeps, payload: JobPayload<"incoming_email">): Promise<void> {
  const keyHash = createHash("sha256").update(payload.key).digest("hex");
  const now = Math.floor(deps.clock.now() / 1000);
  if (!(await claimIncomingEmail(deps, keyHash, now))) {
    deps.log.info("incoming email already processed", { key: payload.key });
    return;
  }
  let result: Result;
  try {
    result = await processIncomingEmail(deps, payload.key);
  } catch (err) {
    await releaseIncomingEmail(deps, keyHash).catch(() => undefined);
    throw err;
  }
  await finishIncomingEmail(deps, keyHash, result.outcome, result.messageIds, result.reason);
  if (result.outcome !== "missing") await deps.files.delete([payload.key]);
  const log = result.outcome === "posted" ? deps.log.info : deps.log.warn;
  log.call(deps.log, `incoming email ${result.outcome}`, {
    key: payload.key,
    message_ids: result.messageIds.join(","),
    ...(result.reason === undefined ? {} : { reason: result.reason }),
  });
}

/** Reads, checks and posts one stored email. */
async function processIncomingEmail(deps: FilesDeps, key: string): Promise<Result> {
  let raw: Uint8Array | undefined;
  try {
    raw = await deps.files.get(key, { maxBytes: MAX_INCOMING_EMAIL_BYTES });
  } catch (err) {
    if (err instanceof ObjectTooLargeError) return refused(`Email is ${err.size} bytes, over the limit of ${MAX_INCOMING_EMAIL_BYTES}`);
    throw err;
  }
  if (raw === undefined) return { outcome: "missing", messageIds: [], reason: "no such object" };
  if (raw.length > MAX_INCOMING_EMAIL_BYTES) return refused(`Email is ${raw.length} bytes, over the limit of ${MAX_INCOMING_EMAIL_BYTES}`);

  let email: IncomingEmail;
  try {
    email = await parseIncomingEmail(raw);
  } catch (err) {
    return refused(`Email could not be parsed: ${String(err).slice(0, 200)}`);
  }
  // SES's scan (the receipt rule has it on) found a virus: nothing of it is posted or uploaded.
  if (email.virusFound) return refused("Email failed the virus scan");
  const { targets, problems } = await resolveTargets(deps, email);
  if (targets.length === 0) return refused(problems.join("; ") || "Missing recipient in mirror email");
  try {
    // Refuse a bodiless email before uploading anything (the first address's options decide what counts as a body).
    extractEmailBody(email, targets[0]!.options);
  } catch (err) {
    if (err instanceof EmailRefusedError) return refused(err.message);
    throw err;
  }

  const messageIds: number[] = [];
  const linksByRealm = new Map<number, Promise<string[]>>();
  for (const target of targets) {
    const { realm, stream, options } = target;
    try {
      const bot = await ensureEmailGatewayBot(deps, realm);
      let links = linksByRealm.get(realm.id);
      if (!links) linksByRealm.set(realm.id, (links = uploadAttachments(deps, realm, bot, email)));
      const content = buildGatewayContent(email, options, await links);
      const { id } = await checkSendMessage(deps, realm, bot, {
        type: "stream",
        to: stream.stream_id,
        topic: emailTopic(email.subject),
        content,
        clientName: "Internal",
      });
      messageIds.push(id);
    } catch (err) {
      // The send path's refusals (and a bodiless email under this address's options) are the email's fault.
      if (!(err instanceof JsonableError) && !(err instanceof EmailRefusedError)) throw err;
      problems.push(`stream ${stream.stream_id}: ${err.message}`);
    }
  }
  return problems.length > 0 ? refused(problems.join("; "), messageIds) : { outcome: "posted", messageIds };
}

/**
 * The streams an email was sent to (Zulip's `find_emailgateway_recipient`
 * and `decode_stream_email_address`): each recipient address at the
 * gateway's domain whose token is a stream's, at most
 * {@link MAX_GATEWAY_RECIPIENTS}, one per stream. The organization must be
 * active and the stream not archived. Problems name stream IDs, never
 * tokens (Zulip redacts addresses in its logs too).
 */
async function resolveTargets(deps: FilesDeps, email: IncomingEmail): Promise<{ targets: GatewayTarget[]; problems: string[] }> {
  const domain = emailGatewayDomain(deps.config);
  const decoded = new Map<string, GatewayAddressOptions>();
  for (const address of email.recipients) {
    const found = decodeStreamEmailAddress(address, domain);
    if (found && !decoded.has(found.token) && decoded.size < MAX_GATEWAY_RECIPIENTS) decoded.set(found.token, found.options);
  }
  const problems: string[] = [];
  const targets = await Promise.all(
    [...decoded].map(async ([token, options]): Promise<GatewayTarget | undefined> => {
      const lookup = await streamByEmailToken(deps, token);
      if (!lookup) {
        problems.push("Bad stream token from email recipient");
        return undefined;
      }
      const [realm, stream] = await Promise.all([getRealm(deps, lookup.realm_id), getStream(deps, lookup.realm_id, lookup.stream_id)]);
      if (!realm || realm.deactivated) {
        problems.push(`organization ${lookup.realm_id} is deactivated`);
        return undefined;
      }
      if (!stream || stream.deactivated || stream.email_token !== token) {
        problems.push(`stream ${lookup.stream_id} is archived`);
        return undefined;
      }
      return { realm, stream, options };
    }),
  );
  return { targets: targets.filter((t): t is GatewayTarget => t !== undefined), problems };
}

/**
 * Uploads the email's attachments as the bot's files in the realm (Zulip's
 * `extract_and_upload_attachments`), at most {@link MAX_EMAIL_ATTACHMENTS};
 * one the upload refuses (over the size limit or the organization's quota)
 * is left out and logged.
 * @returns Markdown links to the uploaded files, in the email's order
 */
async function uploadAttachments(
  deps: FilesDeps,
  realm: RealmRecord,
  bot: Parameters<typeof checkUploadFile>[2],
  email: IncomingEmail,
): Promise<string[]> {
  const links: string[] = [];
  for (const attachment of email.attachments.slice(0, MAX_EMAIL_ATTACHMENTS)) {
    try {
      const { url } = await checkUploadFile(
        deps,
        realm,
        bot,
        [{ filename: attachment.filename, contentType: attachment.contentType, bytes: attachment.bytes, truncated: false }],
        deps.config.MAX_FILE_UPLOAD_SIZE_MIB,
      );
      links.push(attachmentLink(attachment.filename, url));
    } catch (err) {
      if (!(err instanceof JsonableError)) throw err;
      deps.log.warn("incoming email attachment left out", { realm_id: realm.id, size: attachment.bytes.length, reason: err.message });
    }
  }
  return links;
}
