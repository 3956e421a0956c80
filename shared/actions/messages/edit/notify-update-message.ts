import type { Deps } from "../../../deps.js";
import { sendEvent } from "../../../events/publish.js";
import type { EventOf } from "../../../events/types.js";

/**
 * Zulip's `update_message` event (https://zulip.com/api/get-events#update_message)
 * of `do_update_message`: each receiver gets `flags`, their flags for the
 * edited message (`message_id`), so one event is sent per distinct flag
 * set, in the order the receivers first name it.
 * @param receivers user ID and wire flags of each receiver
 */
export async function notifyUpdateMessage(
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
