import { realmGroupSettingAllows, realmSettings, rolePolicyAllows, systemGroupId } from "./realm-settings.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { StreamRecord } from "../data/records/stream.js";
import type { SubscriptionRecord } from "../data/records/subscription.js";
import type { UserRecord } from "../data/records/user.js";

import { JsonableError } from "../errors.js";
import { isGuest, isModeratorOrAbove, isRealmAdmin, isRealmOwner, Role } from "./roles.js";

/**
 * Pure rules about who may see, read, post to and manage streams
 * (Zulip's `zerver/lib/streams.py` and the "Channel permissions" help
 * page), at feature level 283 with the organization's default policies.
 */

/** `stream_post_policy` values (https://zulip.com/api/get-stream-by-id). */
export const StreamPostPolicy = {
  EVERYONE: 1,
  ADMINS: 2,
  /** Full members: members past the organization's waiting period, and above. */
  RESTRICT_NEW_MEMBERS: 3,
  MODERATORS: 4,
} as const;

export const STREAM_POST_POLICY_VALUES: readonly number[] = Object.values(StreamPostPolicy);

/** A subscription's `role` (the subscription object of `subscription` `add` events). */
export const SubscriptionRole = {
  STREAM_ADMINISTRATOR: 20,
  MEMBER: 50,
} as const;

/** Zulip's `Stream.MAX_NAME_LENGTH` (reported as `max_stream_name_length`). */
export const MAX_STREAM_NAME_LENGTH = 60;

/** Zulip's `Stream.MAX_DESCRIPTION_LENGTH` (reported as `max_stream_description_length`). */
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

type StreamAccessFields = Pick<StreamRecord, "invite_only" | "is_web_public" | "history_public_to_subscribers">;
/** A user's role; `fullMember` false for a member still in the realm's waiting period. */
type UserRole = Pick<UserRecord, "role"> & { fullMember?: boolean };

function active(sub: Pick<SubscriptionRecord, "active"> | undefined): boolean {
  return sub !== undefined && sub.active;
}

/**
 * Whether a user may see a stream's metadata (name, description, settings)
 * and address it (Zulip's `check_basic_stream_access`): web-public streams
 * for everyone, public streams for everyone but guests, any stream the user
 * is subscribed to, and, only when `allowRealmAdmin` is set, any stream for
 * organization administrators.
 * @param sub the user's subscription to the stream, if any (inactive counts as none)
 * @param opts.allowRealmAdmin let administrators see private streams they are not
 *   subscribed to (subscriber lists, stream settings; never message content)
 */
export function hasBasicStreamAccess(
  user: UserRole,
  stream: StreamAccessFields,
  sub: Pick<SubscriptionRecord, "active"> | undefined,
  opts: { allowRealmAdmin?: boolean } = {},
): boolean {
  if (stream.is_web_public) return true;
  if (!stream.invite_only && !isGuest(user)) return true;
  if (active(sub)) return true;
  return Boolean(opts.allowRealmAdmin) && isRealmAdmin(user);
}

/**
 * Whether a user may read a stream's history from before they were
 * subscribed (Zulip's `can_access_stream_history`): web-public streams and
 * public streams for non-guests always; streams with
 * `history_public_to_subscribers` for their subscribers; otherwise never
 * (then only messages the user received are visible).
 * @param sub the user's subscription to the stream, if any (inactive counts as none)
 */
export function canReadStreamHistory(
  user: UserRole,
  stream: StreamAccessFields,
  sub: Pick<SubscriptionRecord, "active"> | undefined,
): boolean {
  if (stream.is_web_public) return true;
  if (!stream.invite_only && stream.history_public_to_subscribers && !isGuest(user)) return true;
  if (stream.history_public_to_subscribers) return active(sub);
  return false;
}

/**
 * Whether a member is still a "new member" for `stream_post_policy` 3: a
 * member (not moderator or above) who joined less than the organization's
 * `waiting_period_threshold` days ago. Zulip's default threshold is 0 days,
 * so by default every member is a full member.
 * @param nowSeconds the current time in UNIX seconds
 */
export function isProvisionalMember(
  user: Pick<UserRecord, "role" | "date_joined">,
  realm: Pick<RealmRecord, "settings"> | undefined,
  nowSeconds: number,
): boolean {
  if (user.role !== Role.MEMBER) return false;
  const days = Number(realm?.settings?.waiting_period_threshold ?? 0);
  if (!Number.isFinite(days) || days <= 0) return false;
  return nowSeconds - user.date_joined < days * 86400;
}

function postPolicyError(user: Pick<UserRecord, "role" | "date_joined">, stream: Pick<StreamRecord, "stream_post_policy">, realm: Pick<RealmRecord, "settings"> | undefined, nowSeconds: number): JsonableError | undefined {
  if (isRealmAdmin(user)) return undefined;
  const policy = stream.stream_post_policy;
  if (policy === StreamPostPolicy.ADMINS) {
    return new JsonableError("Only organization administrators can send to this channel.");
  }
  if (policy === StreamPostPolicy.MODERATORS && !isModeratorOrAbove(user)) {
    return new JsonableError("Only organization administrators and moderators can send to this channel.");
  }
  if (policy !== StreamPostPolicy.EVERYONE && isGuest(user)) {
    return new JsonableError("Guests cannot send to this channel.");
  }
  if (policy === StreamPostPolicy.RESTRICT_NEW_MEMBERS && isProvisionalMember(user, realm, nowSeconds)) {
    return new JsonableError("New members cannot send to this channel.");
  }
  return undefined;
}

/**
 * Enforces a stream's `stream_post_policy` for a sender (Zulip's
 * `check_stream_access_based_on_stream_post_policy`): 2 administrators
 * only, 4 administrators and moderators, 3 full members (guests and, with a
 * waiting period, new members refused), 1 everyone.
 *
 * Bots: as in Zulip's `access_stream_for_send_message`, a bot that fails
 * the policy may still post when its owner passes it; pass the owner as
 * `opts.botOwner` (the caller loads it). Without an owner the bot's own
 * role decides.
 *
 * @param opts.realm the sender's organization, for the full-member waiting period (default 0 days)
 * @param opts.nowSeconds current time in UNIX seconds (waiting period); @default Date.now()/1000
 * @throws JsonableError 400 `Only organization administrators can send to this channel.`,
 *   `Only organization administrators and moderators can send to this channel.`,
 *   `Guests cannot send to this channel.` or `New members cannot send to this channel.`
 */
export function checkStreamPostPolicy(
  user: Pick<UserRecord, "role" | "date_joined" | "is_bot">,
  stream: Pick<StreamRecord, "stream_post_policy">,
  opts: {
    botOwner?: Pick<UserRecord, "role" | "date_joined">;
    realm?: Pick<RealmRecord, "settings">;
    nowSeconds?: number;
  } = {},
): void {
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  const error = postPolicyError(user, stream, opts.realm, now);
  if (!error) return;
  if (user.is_bot && opts.botOwner) {
    const ownerError = postPolicyError(opts.botOwner, stream, opts.realm, now);
    if (ownerError) throw ownerError;
    return;
  }
  throw error;
}

type RealmSettingsOf = Pick<RealmRecord, "id" | "settings">;

/**
 * Whether a user may create streams of a kind: the organization's
 * `can_create_public_channel_group` / `can_create_private_channel_group`
 * (Zulip's defaults: members and above). Guests never may.
 * @param isMember membership of user-created groups, needed when the setting names one
 *   (`realmSettingGroupMembership`)
 */
export function canCreateStreams(
  user: UserRole,
  realm: RealmSettingsOf,
  kind: "public" | "private",
  isMember?: (groupId: number) => boolean,
): boolean {
  if (isGuest(user)) return false;
  return realmGroupSettingAllows(realm, streamCreationSetting(kind), user, isMember);
}

/** The group-valued realm setting that decides who may create streams of a kind. */
export function streamCreationSetting(kind: "public" | "private") {
  return kind === "public" ? ("can_create_public_channel_group" as const) : ("can_create_private_channel_group" as const);
}

/** Whether a user may create web-public streams: `can_create_web_public_channel_group` (Zulip's default: owners). */
export function canCreateWebPublicStreams(user: UserRole, realm: RealmSettingsOf): boolean {
  return realmGroupSettingAllows(realm, "can_create_web_public_channel_group", user);
}

/**
 * Whether a user may subscribe other users to streams: the organization's
 * `invite_to_stream_policy` (Zulip's default: members and above).
 */
export function canSubscribeOtherUsers(user: UserRole, realm: RealmSettingsOf): boolean {
  return rolePolicyAllows(Number(realmSettings(realm).invite_to_stream_policy), user);
}

/**
 * Whether the organization allows web-public streams: its
 * `enable_spectator_access` setting (off by default, which is also what
 * `GET /server_settings` reports as `realm_web_public_access_enabled`).
 */
export function webPublicStreamsEnabled(realm: Pick<RealmRecord, "settings">): boolean {
  return realm.settings?.enable_spectator_access === true;
}

/**
 * Whether a user may change a stream's settings: organization
 * administrators, and the stream's own administrators (subscription role 20).
 */
export function isStreamAdministrator(user: UserRole, sub: Pick<SubscriptionRecord, "active" | "role"> | undefined): boolean {
  if (isRealmAdmin(user)) return true;
  return active(sub) && sub!.role === SubscriptionRole.STREAM_ADMINISTRATOR;
}

/**
 * Whether a user may unsubscribe others from a stream (Zulip's
 * `can_remove_subscribers_from_stream`): they must be able to see the
 * stream (administrators may, even for private streams) and be in its
 * `can_remove_subscribers_group`, by default the administrators system
 * group; stream administrators (role 20) also qualify.
 */
export function canRemoveSubscribers(
  user: UserRole,
  stream: StreamAccessFields,
  sub: Pick<SubscriptionRecord, "active" | "role"> | undefined,
): boolean {
  if (!hasBasicStreamAccess(user, stream, sub, { allowRealmAdmin: true })) return false;
  return isStreamAdministrator(user, sub);
}

/**
 * The ID stored as a new stream's `can_remove_subscribers_group`: the
 * organization's "role:administrators" system group (Zulip's default), whose
 * ID is derived from the realm's (see `systemGroupId`).
 */
export function defaultCanRemoveSubscribersGroup(realm: Pick<RealmRecord, "id">): number {
  return systemGroupId(realm.id, "role:administrators");
}

/**
 * Largest `message_retention_days`: Zulip stores it in a 32-bit integer
 * column; anything larger is refused rather than stored as a number no
 * client or date computation can use.
 */
export const MAX_MESSAGE_RETENTION_DAYS = 2_147_483_647;

/**
 * Parses `message_retention_days` as Zulip does: `realm_default` → null
 * (inherit the organization's setting), `unlimited` → -1 (forever), else a
 * positive number of days up to {@link MAX_MESSAGE_RETENTION_DAYS}.
 * @throws JsonableError 400 `Bad value for 'message_retention_days': <value>`
 */
export function parseMessageRetentionDays(value: string | number): number | null {
  if (value === "realm_default") return null;
  if (value === "unlimited") return -1;
  if (typeof value === "number" && Number.isInteger(value) && value > 0 && value <= MAX_MESSAGE_RETENTION_DAYS) return value;
  throw new JsonableError(`Bad value for 'message_retention_days': ${value}`);
}
