import { useEffect, useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import type { ChatState } from "../../../model/store.js";
import { EMPTY_CHANNELS, setSubscribers, type ChannelState } from "../../../model/channels.js";
import { isFullMember, type Reader, type UserGroup } from "../../../model/channel-permissions.js";
import { myRole } from "../../../model/roles.js";
import { streamHash } from "../../../model/narrow.js";
import { overlayHash } from "../../../model/overlay.js";

/** The channel part of the state (empty in a hand-built state). */
export function channelsOf(state: ChatState): ChannelState {
  return state.channels ?? EMPTY_CHANNELS;
}

/** The reader as the permission checks take them (role, full membership). */
export function readerOf(state: ChatState): Reader {
  const role = myRole(state);
  const me = state.users.get(state.me.user_id);
  return { userId: state.me.user_id, role, fullMember: isFullMember(role, me?.date_joined, state.realmSettings, Date.now()) };
}

/** The hash of one stream's settings tab (`#channels/12/design/general`). */
export function streamSettingsHash(streamId: number, name: string, tab: "general" | "personal" | "subscribers" = "general"): string {
  return overlayHash("channels", String(streamId), name, tab);
}

/** The hash of a stream's messages (`#narrow/channel/12-design`). */
export function streamMessagesHash(streamId: number, name: string): string {
  return streamHash(streamId, name);
}

let groupsCache: Promise<UserGroup[]> | null = null;

/**
 * The organization's user groups (`GET /user_groups`, https://zulip.com/api/get-user-groups),
 * fetched once per page and shared by the sections; null while loading or
 * when the fetch failed (the server's checks still apply then).
 */
export function useUserGroups(chat: Chat): UserGroup[] | null {
  const [groups, setGroups] = useState<UserGroup[] | null>(null);
  useEffect(() => {
    let live = true;
    groupsCache ??= chat.api.call<{ user_groups: UserGroup[] }>("GET", "/user_groups").then((r) => r.user_groups);
    groupsCache.then(
      (g) => live && setGroups(g),
      () => {
        groupsCache = null;
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return groups;
}

const inFlight = new Set<number>();
/** Streams whose list could not be fetched: not asked again on every render. */
const failed = new Set<number>();

/**
 * Fetches the subscriber lists (`GET /streams/{id}/members`,
 * https://zulip.com/api/get-subscribers) of the given streams that the state
 * does not know yet, four at a time, into the state; `peer_add` and
 * `peer_remove` events keep them current from then on. Failures leave a
 * stream's list unknown (its count is not shown).
 */
export function useSubscriberLists(chat: Chat, state: ChatState, streamIds: readonly number[]): void {
  const known = channelsOf(state).subscribers;
  const missing = streamIds.filter((id) => !known.has(id) && !inFlight.has(id) && !failed.has(id));
  const key = missing.join(",");
  useEffect(() => {
    if (missing.length === 0) return;
    for (const id of missing) inFlight.add(id);
    const queue = [...missing];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          const r = await chat.api.call<{ subscribers: number[] }>("GET", `/streams/${id}/members`);
          chat.patchState((s) => (s.channels ? { ...s, channels: setSubscribers(s.channels, id, r.subscribers) } : s));
        } catch {
          // Unknown stays unknown; the list shows no count for it.
          failed.add(id);
        } finally {
          inFlight.delete(id);
        }
      }
    };
    void Promise.all([worker(), worker(), worker(), worker()]);
  }, [key]);
}
