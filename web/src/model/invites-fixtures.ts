/** A client state for the invitation tests, built from a register answer. */
import { stateFromRegister, type ChatState } from "./store.js";

/** System groups as register lists them (IDs 1–5). */
const GROUPS = [
  { id: 1, name: "role:owners" },
  { id: 2, name: "role:administrators" },
  { id: 3, name: "role:moderators" },
  { id: 4, name: "role:fullmembers" },
  { id: 5, name: "role:members" },
].map((g) => ({ ...g, description: "", members: [], direct_subgroup_ids: [], is_system_group: true, can_mention_group: 1 }));

/**
 * The reader (user 1) with `role`; users 2 (an administrator) and 3; streams
 * 10 "general" (default, subscribed), 11 "design" (subscribed), 12 "random"
 * (public, not subscribed), 13 "secret" (private, not subscribed).
 */
export function inviteState(role: number, realm: Record<string, unknown> = {}): ChatState {
  const user = (user_id: number, r: number, full_name: string) => ({ user_id, role: r, full_name, email: `u${user_id}@example.com`, is_active: true, is_bot: false, date_joined: "2020-01-01T00:00:00Z" });
  const stream = (stream_id: number, name: string, invite_only = false) => ({ stream_id, name, description: "", invite_only });
  return stateFromRegister({
    user_id: 1,
    email: "u1@example.com",
    full_name: "Reader",
    realm_users: [user(1, role, "Reader"), user(2, 200, "Iago"), user(3, 400, "Hamlet")],
    streams: [stream(10, "general"), stream(11, "design"), stream(12, "random"), stream(13, "secret", true)],
    subscriptions: [
      { ...stream(10, "general"), color: "#fff" },
      { ...stream(11, "design"), color: "#fff" },
    ],
    realm_default_streams: [stream(10, "general")],
    realm_user_groups: GROUPS,
    realm_invite_to_realm_policy: 1,
    realm_create_multiuse_invite_group: 2,
    realm_waiting_period_threshold: 0,
    ...realm,
  });
}
