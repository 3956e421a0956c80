import type { Config } from "../config.js";
import type { RealmRecord } from "../data/records/realm.js";
import { realmHost, realmUrl } from "./email.js";

/**
 * The payloads of mobile push notifications that do not describe a message
 * (Zulip's `get_base_payload`, `get_remove_payload_apns` / `_gcm`): what the
 * Zulip apps read to tell organizations and accounts apart, and the
 * removal that clears read messages from the phone. Message payloads are
 * `push-message-payload.ts`.
 */

/** Most message IDs one removal carries (Zulip's `MAX_APNS_MESSAGE_IDS`: APNs payloads stay under 4 KB). */
export const MAX_REMOVAL_MESSAGE_IDS = 200;

/** The fields every notification carries (Zulip's `get_base_payload`). */
export interface BasePushPayload {
  /** The server's host (Zulip's `EXTERNAL_HOST`). */
  server: string;
  realm_id: number;
  /** The organization's URL (the apps match accounts by it); `realm_url` is its newer name. */
  realm_uri: string;
  realm_url: string;
  realm_name: string;
  user_id: number;
}

/** Zulip's `get_base_payload` for one recipient. */
export function basePushPayload(
  realm: Pick<RealmRecord, "id" | "string_id" | "name">,
  userId: number,
  config: Pick<Config, "ROOT_DOMAIN" | "URL_SCHEME">,
): BasePushPayload {
  const url = realmUrl(realm, config);
  return {
    server: realmHost({ string_id: "" }, config),
    realm_id: realm.id,
    realm_uri: url,
    realm_url: url,
    realm_name: realm.name,
    user_id: userId,
  };
}

/** The newest {@link MAX_REMOVAL_MESSAGE_IDS} of the IDs, ascending (older notifications were most likely dismissed by hand). */
export function removalMessageIds(messageIds: readonly number[]): number[] {
  return [...new Set(messageIds)].sort((a, b) => a - b).slice(-MAX_REMOVAL_MESSAGE_IDS);
}

/**
 * The removal notification of read messages (Zulip's
 * `get_remove_payload_apns` and `get_remove_payload_gcm`): `event: remove`
 * with the IDs comma-separated; FCM's also `zulip_message_id` (the first,
 * for apps older than 2019) at normal priority.
 * @param messageIds already reduced with {@link removalMessageIds}
 */
export function removePushPayloads(
  base: BasePushPayload,
  messageIds: readonly number[],
): { apns: Record<string, unknown>; gcm: Record<string, unknown>; gcmOptions: Record<string, unknown> } {
  const ids = messageIds.join(",");
  return {
    apns: { badge: 0, custom: { zulip: { ...base, event: "remove", zulip_message_ids: ids } } },
    gcm: { ...base, event: "remove", zulip_message_ids: ids, zulip_message_id: messageIds[0] },
    gcmOptions: { priority: "normal" },
  };
}
