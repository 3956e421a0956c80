import { randomBytes } from "node:crypto";
import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { ensureStreamEmailToken } from "../../data/streams.js";
import { putStreamEmailToken } from "../../data/email-gateway.js";
import { emailGatewayDomain, streamEmailAddress } from "../../domain/stream-email.js";
import { InvalidChannelIdError } from "../../errors.js";
import { accessStream } from "../../access/stream.js";

/**
 * `GET /streams/{stream_id}/email_address`
 * (https://zulip.com/api/get-stream-email-address; Zulip's
 * `get_stream_email_address` with `encode_email_address(stream, show_sender=True)`).
 *
 * Access is Zulip's `access_stream_by_id`: web-public and public streams
 * for non-guests, private ones only for subscribers (administrators get no
 * exception). The address is `<name slug>.<token>.show-sender@<domain>`
 * ({@link streamEmailAddress}): the token is the stream item's
 * `email_token` (32 hex digits, created by the first request for it: one
 * conditional UpdateItem, every later request reads it with the stream);
 * the domain is `EMAIL_GATEWAY_DOMAIN`, else the host name of
 * `ROOT_DOMAIN` ({@link emailGatewayDomain}). Mail sent there is posted
 * by the email gateway (`shared/actions/email-gateway/`), which finds the
 * stream by the token's lookup item: written here on every request (an
 * idempotent PutItem, so a token handed out before receiving existed
 * resolves once its address is asked for again).
 *
 * Round trips: access (1), the token's first creation (0–1), the lookup item (1).
 * @returns `{ email }`
 * @throws InvalidChannelIdError (400 `Invalid channel ID`) for a missing, archived or inaccessible stream
 */
export async function fetchStreamEmailAddress(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  streamId: number,
): Promise<{ email: string }> {
  const { stream } = await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelIdError() });
  const token = stream.email_token ?? (await ensureStreamEmailToken(deps, realm.id, streamId, randomBytes(16).toString("hex")));
  if (token === undefined) throw new InvalidChannelIdError();
  await putStreamEmailToken(deps, token, { realm_id: realm.id, stream_id: streamId });
  return { email: streamEmailAddress(stream.name, token, emailGatewayDomain(deps.config)) };
}
