import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { sendEvent } from "../../events/publish.js";
import { botToWire } from "../../wire/bot.js";

/**
 * Sends a `realm_bot` `add` event (https://zulip.com/api/get-events#realm_bot-add;
 * Zulip's `notify_created_bot` / `created_bot_event`) describing `bot` as
 * register's `realm_bots` does, to `audience` (the bot's administrators, or
 * a new owner). Call only after the bot is stored.
 * @param streams the realm's streams by ID, at least the bot's default streams
 */
export async function notifyRealmBotAdd(
  deps: Deps,
  realm: RealmRecord,
  bot: UserRecord,
  streams: ReadonlyMap<number, Pick<StreamRecord, "name">>,
  audience: number[],
): Promise<void> {
  await sendEvent(deps, { type: "realm_bot", op: "add", bot: botToWire(bot, realm, deps.config, streams) }, audience);
}

/**
 * Sends a `realm_bot` `delete` event (https://zulip.com/api/get-events#realm_bot-delete):
 * the bot left the lists of `audience` (a previous owner who does not
 * administer it any more, as Zulip's `do_change_bot_owner` tells them).
 */
export async function notifyRealmBotDelete(deps: Deps, botId: number, audience: number[]): Promise<void> {
  await sendEvent(deps, { type: "realm_bot", op: "delete", bot: { user_id: botId } }, audience);
}
