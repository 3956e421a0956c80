import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";

import { listRealmStreams } from "../../data/streams.js";
import { isGuest } from "../../domain/roles.js";
import { sendEvent } from "../../events/publish.js";
import type { ActiveRealmUser } from "../../queries/streams/audience.js";
import { defaultStreamToWire } from "../../wire/stream.js";

/**
 * Sends the realm's current default streams to its active non-guest users
 * (Zulip's `notify_default_streams`: a `default_streams` event carrying the
 * whole list). One Query of the realm's streams.
 * @param justWritten streams the caller has just changed: they replace what the
 *   (eventually consistent) Query returns for them
 */
export async function notifyDefaultStreams(
  deps: Deps,
  realm: RealmRecord,
  activeUsers: ActiveRealmUser[],
  justWritten: StreamRecord[] = [],
): Promise<void> {
  const fresh = new Map(justWritten.map((s) => [s.stream_id, s]));
  const listed = await listRealmStreams(deps, realm.id);
  const all = new Map(listed.map((s) => [s.stream_id, fresh.get(s.stream_id) ?? s]));
  for (const s of justWritten) all.set(s.stream_id, s);
  const defaults = [...all.values()]
    .filter((s) => s.is_default && !s.deactivated)
    .sort((a, b) => a.stream_id - b.stream_id);
  await sendEvent(
    deps,
    { type: "default_streams", default_streams: defaults.map((s) => defaultStreamToWire(s)) },
    activeUsers.filter((u) => !isGuest(u)).map((u) => u.user_id),
  );
}
