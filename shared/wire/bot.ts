import type { Config } from "../config.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { StreamRecord } from "../data/records/stream.js";
import type { UserRecord } from "../data/records/user.js";

import { avatarUrlFor } from "../domain/avatar.js";
import { apiEmail } from "../domain/email.js";

/** A bot as register's `realm_bots` and `realm_bot` `add` events describe it (Zulip's `created_bot_event` / `get_bot_dicts_in_realm`). */
export interface WireRealmBot {
  user_id: number;
  full_name: string;
  api_key: string;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  avatar_url: string;
  owner_id: number | null;
  services: Record<string, unknown>[];
  email: string;
  bot_type: number | null;
  is_active: boolean;
}

/** The name of a bot's default stream, or null when it has none (or the stream is gone). */
export function defaultStreamName(
  streamId: number | null | undefined,
  streams: ReadonlyMap<number, Pick<StreamRecord, "name">>,
): string | null {
  if (streamId === null || streamId === undefined) return null;
  return streams.get(streamId)?.name ?? null;
}

/**
 * The `realm_bots` entry of a bot. Zulip lists an outgoing-webhook bot's
 * services here; this server stores none, so `services` is empty.
 * @param streams the realm's streams by ID (for the default streams' names)
 */
export function botToWire(
  bot: UserRecord,
  realm: RealmRecord,
  config: Pick<Config, "ROOT_DOMAIN">,
  streams: ReadonlyMap<number, Pick<StreamRecord, "name">>,
): WireRealmBot {
  return {
    user_id: bot.user_id,
    full_name: bot.full_name,
    api_key: bot.api_key,
    default_sending_stream: defaultStreamName(bot.default_sending_stream_id, streams),
    default_events_register_stream: defaultStreamName(bot.default_events_register_stream_id, streams),
    default_all_public_streams: bot.default_all_public_streams ?? false,
    avatar_url: avatarUrlFor(bot, { clientGravatar: false, emailVisible: true })!,
    owner_id: bot.bot_owner_id,
    services: [],
    email: apiEmail(bot, realm, config),
    bot_type: bot.bot_type,
    is_active: bot.is_active,
  };
}
