/**
 * Who may do what to a message, from the organization's settings as register
 * sends them (`ChatState.realmSettings`, kept current by `realm` events) and
 * the reader's role: Zulip's web app's rules for showing "Edit message",
 * "Delete message" and "View edit history" (https://zulip.com/help/restrict-message-editing-and-deletion,
 * https://zulip.com/help/view-a-messages-edit-history). The server checks
 * again; these only decide which actions a message offers. Pure functions.
 */
import { checkRolePolicy, isFullMemberAt, ROLE } from "./roles.js";
import type { ChatState } from "./store.js";
import type { Message } from "./types.js";

/** What the rules read from the state. */
export type PermissionState = Pick<ChatState, "realmSettings" | "users" | "me">;

/** A message as the rules see it. */
export type PermissionMessage = Pick<Message, "sender_id" | "timestamp" | "local_id"> & {
  last_edit_timestamp?: number;
  edit_history?: readonly Record<string, unknown>[];
};

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" ? value : null;
}

/**
 * Whether the reader is a full member: a member (or above) whose account is
 * older than the organization's waiting period (`realm_waiting_period_threshold`
 * days; 0 makes every member full). Administrators always are.
 * @param nowSeconds UNIX seconds
 */
export function isFullMember(state: PermissionState, nowSeconds: number): boolean {
  const me = state.users.get(state.me.user_id);
  const days = numberOrNull(state.realmSettings.realm_waiting_period_threshold) ?? 0;
  return isFullMemberAt(me?.role ?? ROLE.member, me?.date_joined ? Date.parse(me.date_joined) / 1000 : undefined, days, nowSeconds);
}

/**
 * Whether the reader passes one of Zulip's integer permission policies
 * (`delete_own_message_policy` and friends, https://zulip.com/api/register-queue):
 * 1 members, 2 administrators, 3 full members, 4 moderators, 5 everyone
 * (guests too); anything else nobody.
 */
export function policyAllows(state: PermissionState, policy: unknown, nowSeconds: number): boolean {
  const role = state.users.get(state.me.user_id)?.role ?? ROLE.member;
  return typeof policy === "number" && checkRolePolicy(policy, role, isFullMember(state, nowSeconds));
}

/**
 * Whether "Edit message" is offered: the reader's own confirmed message,
 * while the organization allows editing (`realm_allow_message_editing`) and,
 * with a limit (`realm_message_content_edit_limit_seconds`, null for none),
 * while the message is younger than it.
 * @param nowSeconds UNIX seconds
 */
export function canEditContent(state: PermissionState, message: PermissionMessage, nowSeconds: number): boolean {
  if (message.local_id !== undefined) return false;
  if (state.realmSettings.realm_allow_message_editing === false) return false;
  if (message.sender_id !== state.me.user_id) return false;
  const limit = numberOrNull(state.realmSettings.realm_message_content_edit_limit_seconds);
  return limit === null || nowSeconds - message.timestamp < limit;
}

/**
 * Whether the reader may delete any message (`realm_can_delete_any_message_group`).
 * The setting names a user group; the app has no group list, so it is read
 * as Zulip's default, the organization's administrators (and owners).
 */
export function canDeleteAnyMessage(state: PermissionState): boolean {
  return (state.users.get(state.me.user_id)?.role ?? ROLE.member) <= ROLE.administrator;
}

/**
 * Whether "Delete message" is offered: to those who may delete any message;
 * else on the reader's own messages (or their bots'), when
 * `realm_delete_own_message_policy` lets them, within
 * `realm_message_content_delete_limit_seconds` (null for no limit).
 * @param nowSeconds UNIX seconds
 */
export function canDeleteMessage(state: PermissionState, message: PermissionMessage, nowSeconds: number): boolean {
  if (message.local_id !== undefined) return false;
  if (canDeleteAnyMessage(state)) return true;
  const sender = state.users.get(message.sender_id);
  const mine = message.sender_id === state.me.user_id || (sender?.is_bot === true && sender.bot_owner_id === state.me.user_id);
  if (!mine) return false;
  if (!policyAllows(state, state.realmSettings.realm_delete_own_message_policy ?? 2, nowSeconds)) return false;
  const limit = numberOrNull(state.realmSettings.realm_message_content_delete_limit_seconds);
  return limit === null || nowSeconds - message.timestamp < limit;
}

/**
 * Which edits the organization shows in edit history: Zulip's
 * `message_edit_history_visibility_policy` ("all", "moves", "none") where the
 * server sends it, else the older boolean `realm_allow_edit_history`.
 */
export function editHistoryVisibility(state: Pick<ChatState, "realmSettings">): "all" | "moves" | "none" {
  const policy = state.realmSettings.realm_message_edit_history_visibility_policy;
  if (policy === "all" || policy === "moves" || policy === "none") return policy;
  return state.realmSettings.realm_allow_edit_history === false ? "none" : "all";
}

/**
 * Whether "View edit history" is offered: the message was edited or moved
 * (`last_edit_timestamp`) and the organization shows such history; with
 * "moves", only when its history holds a topic or stream change.
 */
export function canViewEditHistory(state: Pick<ChatState, "realmSettings">, message: PermissionMessage): boolean {
  const visibility = editHistoryVisibility(state);
  if (visibility === "none" || message.last_edit_timestamp === undefined) return false;
  if (visibility === "all") return true;
  return (message.edit_history ?? []).some((e) => "prev_topic" in e || "prev_stream" in e);
}
