import type { Deps } from "../deps.js";
import { sendEvent } from "./publish.js";
import type { EventOf, ZulipEvent } from "./types.js";

/** Users whose events are written at once by {@link sendEventsPerUser}. */
const PER_USER_PARALLELISM = 16;

/**
 * Sends events whose payload differs per user (for example `subscription`
 * `add`, whose objects carry each user's own colors), as Zulip's
 * `send_event` called once per user. Users are served in parallel, at most
 * `parallelism` at a time, so a bulk change for thousands of users neither
 * loops sequentially nor opens thousands of connections at once; one
 * user's events go out in the order given.
 * @param perUser each user's ID and the events only that user gets
 * @param parallelism users in flight at once @default 16
 */
export async function sendEventsPerUser(
  deps: Deps,
  perUser: { userId: number; events: ZulipEvent[] }[],
  parallelism = PER_USER_PARALLELISM,
): Promise<void> {
  for (let i = 0; i < perUser.length; i += parallelism) {
    await Promise.all(
      perUser.slice(i, i + parallelism).map(async ({ userId, events }) => {
        for (const event of events) await sendEvent(deps, event, [userId]);
      }),
    );
  }
}

/**
 * Sends Zulip's `update_message` event (https://zulip.com/api/get-events#update_message;
 * `do_update_message`, `do_update_embedded_data`): each receiver gets
 * `flags`, their flags for the edited message (`message_id`), so one event
 * is sent per distinct flag set, in the order the receivers first name it.
 * @param receivers user ID and wire flags of each receiver
 */
export async function sendUpdateMessageEvent(
  deps: Deps,
  event: Omit<EventOf<"update_message">, "flags">,
  receivers: Iterable<{ id: number; flags: string[] }>,
): Promise<void> {
  const groups = new Map<string, { flags: string[]; ids: number[] }>();
  for (const r of receivers) {
    const key = JSON.stringify(r.flags);
    const group = groups.get(key);
    if (group) group.ids.push(r.id);
    else groups.set(key, { flags: r.flags, ids: [r.id] });
  }
  await Promise.all([...groups.values()].map((g) => sendEvent(deps, { ...event, flags: g.flags }, g.ids)));
}
