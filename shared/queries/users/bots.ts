import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStreamsByIds } from "../../data/streams.js";
import { listRealmMembers } from "../../data/users.js";
import { avatarUrlFor } from "../../domain/avatar.js";
import { apiEmail } from "../../domain/email.js";
import { defaultStreamName } from "../../wire/bot.js";

/** One entry of `GET /bots`' `bots` (Zulip's `bot_info`). */
export type OwnBotInfo = {
  username: string;
  full_name: string;
  api_key: string;
  avatar_url: string | null;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
};

/**
 * `GET /bots` (Zulip's `get_bots_backend`): the caller's own active bots,
 * oldest first; administrators too see only their own here (the realm's
 * bots are in register's `realm_bots`). Two round trips: the realm's users,
 * then the default streams named (if any).
 */
export async function fetchOwnBots(deps: Deps, realm: RealmRecord, caller: UserRecord): Promise<{ bots: OwnBotInfo[] }> {
  const users = await listRealmMembers(deps, realm.id);
  const bots = users
    .filter((u) => u.is_bot && u.is_active && u.bot_owner_id === caller.user_id)
    .sort((a, b) => a.date_joined - b.date_joined || a.user_id - b.user_id);
  const streamIds = new Set<number>();
  for (const b of bots) {
    for (const id of [b.default_sending_stream_id, b.default_events_register_stream_id]) {
      if (typeof id === "number") streamIds.add(id);
    }
  }
  const streams = streamIds.size > 0 ? await getStreamsByIds(deps, realm.id, [...streamIds]) : new Map();
  return {
    bots: bots.map((b) => ({
      username: apiEmail(b, realm, deps.config),
      full_name: b.full_name,
      api_key: b.api_key,
      avatar_url: avatarUrlFor(b, { clientGravatar: false, emailVisible: true }),
      default_sending_stream: defaultStreamName(b.default_sending_stream_id, streams),
      default_events_register_stream: defaultStreamName(b.default_events_register_stream_id, streams),
      default_all_public_streams: b.default_all_public_streams ?? false,
    })),
  };
}
