import type { Config } from "../../config.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { ReactionRecord, ReactionType } from "../../data/records/reaction.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserRecord } from "../../data/records/user.js";
import { reactionsInOrder } from "../../data/reactions.js";
import { STORED_FLAGS } from "../../data/user-messages.js";
import { avatarUrlFor } from "../../domain/avatar.js";
import { apiEmail } from "../../domain/email.js";
import { REALM_GROUP_SETTING_DEFAULTS, REALM_SETTING_DEFAULTS, systemGroupId } from "../../domain/realm-settings.js";
import { Role } from "../../domain/roles.js";
import { USER_SETTING_DEFAULTS } from "../../domain/user-settings.js";
import { topicUrlLinks } from "../../markdown/topic-links.js";
import { flagsOfMask, type Row } from "./export-tables.js";
import { mapGroupSetting, mentionsOfRendered, remapEditHistory, remapText, type ImportMaps } from "./import-remap.js";

/**
 * Rows of an export's `zerver_*` tables (see `export-tables.ts`, Zulip's
 * names) → our records for the new realm, every foreign key through the
 * import's maps. Fields a row lacks take the defaults a new object gets.
 */

const str = (v: unknown, fallback = ""): string => (typeof v === "string" ? v : fallback);
const num = (v: unknown, fallback: number): number => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const bool = (v: unknown, fallback = false): boolean => (typeof v === "boolean" ? v : fallback);
const optBool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);
const ROLES = new Set<number>(Object.values(Role));

/** The keys of `row` that are known settings (`defaults`' keys), with their values. */
function pickSettings(row: Row, defaults: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([k, v]) => k in defaults && v !== undefined && v !== null));
}

/**
 * The new realm from `zerver_realm[0]`: name, description and settings
 * (group-valued ones remapped); created deactivated, so that a failed
 * import leaves no usable half-organization (the import reactivates it last).
 */
export function importedRealm(row: Row, maps: ImportMaps, stringId: string, now: number): RealmRecord {
  const settings = pickSettings(row, REALM_SETTING_DEFAULTS);
  for (const [key, group] of Object.entries(REALM_GROUP_SETTING_DEFAULTS)) {
    if (row[key] !== undefined) settings[key] = mapGroupSetting(maps, row[key], systemGroupId(maps.newRealmId, group));
  }
  const defaults = row.user_settings_defaults;
  return {
    id: maps.newRealmId,
    string_id: stringId,
    name: str(row.name, stringId) || stringId,
    description: str(row.description),
    date_created: num(row.date_created, now),
    deactivated: true,
    settings,
    user_settings_defaults: defaults && typeof defaults === "object" ? pickSettings(defaults as Row, USER_SETTING_DEFAULTS) : {},
  };
}

/**
 * A user of `zerver_userprofile` in the new realm, with a fresh API key
 * and no password (the archive has neither): the user sets one with
 * "Forgot password", or an owner sets one.
 */
export function importedUser(row: Row, maps: ImportMaps, apiKey: string, now: number): UserRecord {
  const isBot = bool(row.is_bot);
  const owner = typeof row.bot_owner === "number" ? maps.users.get(row.bot_owner) : undefined;
  const role = num(row.role, Role.MEMBER);
  return {
    realm_id: maps.newRealmId,
    user_id: maps.users.get(num(row.id, -1))!,
    delivery_email: str(row.delivery_email) || str(row.email),
    full_name: str(row.full_name),
    role: ROLES.has(role) ? role : Role.MEMBER,
    is_active: bool(row.is_active, true),
    is_bot: isBot,
    bot_type: isBot ? num(row.bot_type, 1) : null,
    bot_owner_id: isBot ? (owner ?? null) : null,
    is_billing_admin: bool(row.is_billing_admin),
    // Avatars are not in a public export: everyone starts with a gravatar.
    avatar_source: "G",
    avatar_version: 1,
    timezone: str(row.timezone),
    date_joined: num(row.date_joined, now),
    api_key: apiKey,
    password_hash: null,
    settings: pickSettings(row, USER_SETTING_DEFAULTS),
    profile_data: {},
  };
}

/** A stream of `zerver_stream` in the new realm (first message claimed later, as sending does). */
export function importedStream(row: Row, maps: ImportMaps, defaultStreamIds: Set<number>, now: number): StreamRecord {
  const oldId = num(row.id, -1);
  const creator = typeof row.creator === "number" ? maps.users.get(row.creator) : undefined;
  const retention = row.message_retention_days;
  return {
    realm_id: maps.newRealmId,
    stream_id: maps.streams.get(oldId)!,
    name: str(row.name),
    description: str(row.description),
    rendered_description: remapText(str(row.rendered_description), maps),
    invite_only: bool(row.invite_only),
    is_web_public: bool(row.is_web_public),
    history_public_to_subscribers: bool(row.history_public_to_subscribers, !bool(row.invite_only)),
    stream_post_policy: num(row.stream_post_policy, 1),
    message_retention_days: typeof retention === "number" ? retention : null,
    date_created: num(row.date_created, now),
    first_message_id: null,
    recipient_id: maps.recipients.get(num(row.recipient, -1))!,
    creator_id: creator ?? null,
    deactivated: bool(row.deactivated),
    is_default: defaultStreamIds.has(oldId),
    can_remove_subscribers_group: mapGroupSetting(maps, row.can_remove_subscribers_group, systemGroupId(maps.newRealmId, "role:administrators")) as number,
  };
}

/** A `zerver_subscription` row in the new realm; undefined when its user or stream was not imported. */
export function importedSubscription(row: Row, maps: ImportMaps, streamOfRecipient: Map<number, number>): SubscriptionRecord | undefined {
  const userId = maps.users.get(num(row.user_profile, -1));
  const oldStream = streamOfRecipient.get(num(row.recipient, -1));
  const streamId = oldStream === undefined ? undefined : maps.streams.get(oldStream);
  if (userId === undefined || streamId === undefined) return undefined;
  return {
    realm_id: maps.newRealmId,
    user_id: userId,
    stream_id: streamId,
    active: bool(row.active, true),
    color: /^#[0-9a-fA-F]{6}$/.test(str(row.color)) ? str(row.color) : "#c2c2c2",
    is_muted: bool(row.is_muted),
    pin_to_top: bool(row.pin_to_top),
    desktop_notifications: optBool(row.desktop_notifications),
    email_notifications: optBool(row.email_notifications),
    push_notifications: optBool(row.push_notifications),
    audible_notifications: optBool(row.audible_notifications),
    wildcard_mentions_notify: optBool(row.wildcard_mentions_notify),
    role: row.role === 20 ? 20 : 50,
  };
}

/** A `zerver_reaction` row as the stored reaction of an imported user; custom emoji codes follow the emoji map. */
export function importedReaction(row: Row, maps: ImportMaps, user: UserRecord, realm: RealmRecord, config: Pick<Config, "ROOT_DOMAIN">): ReactionRecord {
  const type = (["unicode_emoji", "realm_emoji", "zulip_extra_emoji"].includes(str(row.reaction_type)) ? row.reaction_type : "unicode_emoji") as ReactionType;
  const code = str(row.emoji_code);
  return {
    emoji_name: str(row.emoji_name),
    emoji_code: type === "realm_emoji" ? String(maps.emoji.get(Number(code)) ?? code) : code,
    reaction_type: type,
    user_id: user.user_id,
    user: { id: user.user_id, email: apiEmail(user, realm, config), full_name: user.full_name, is_mirror_dummy: false },
  };
}

/**
 * A `zerver_message` row of a stream message as the new realm's message
 * record: sender and stream denormalized as sending does, content and
 * rendering rewritten for the new IDs and paths (not rendered again), the
 * mentions read from the rendering, reactions and edit history carried.
 */
export function importedMessage(
  row: Row,
  ctx: { maps: ImportMaps; realm: RealmRecord; sender: UserRecord; stream: StreamRecord; reactions: ReactionRecord[]; config: Pick<Config, "ROOT_DOMAIN"> },
): MessageRecord {
  const { maps, realm, sender, stream } = ctx;
  const senderEmail = apiEmail(sender, realm, ctx.config);
  const rendered = remapText(str(row.rendered_content), maps);
  const topic = str(row.subject);
  const lastEdit = row.last_edit_time;
  return {
    id: maps.messages.get(num(row.id, -1))!,
    realm_id: realm.id,
    recipient_type: "stream",
    recipient_id: stream.recipient_id,
    stream_id: stream.stream_id,
    topic,
    display_recipient: stream.name,
    sender_id: sender.user_id,
    sender_email: senderEmail,
    sender_full_name: sender.full_name,
    sender_realm_str: realm.string_id,
    sender_avatar_url: avatarUrlFor(sender, { clientGravatar: false, emailVisible: true })!,
    sender_gravatar: sender.avatar_source === "G" && senderEmail === sender.delivery_email,
    content: remapText(str(row.content), maps),
    rendered_content: rendered,
    rendered_content_version: num(row.rendered_content_version, 1),
    timestamp: Math.floor(num(row.date_sent, 0)),
    client: str(row.sending_client, "Internal") || "Internal",
    is_me_message: bool(row.is_me_message),
    has_link: bool(row.has_link),
    has_image: bool(row.has_image),
    has_attachment: bool(row.has_attachment),
    ...mentionsOfRendered(rendered),
    ...reactionsInOrder(ctx.reactions),
    edit_history: remapEditHistory(row.edit_history, maps),
    ...(typeof lastEdit === "number" ? { last_edit_timestamp: Math.floor(lastEdit) } : {}),
    submessages: [],
    // A new organization has no linkifiers yet: the topic's URLs alone.
    topic_links: topicUrlLinks(topic),
  };
}

/** Zulip's `flags_mask` as our stored flags (flags we do not store, e.g. `is_private`, are dropped). */
export function storedFlagsOfMask(mask: number): string[] {
  return flagsOfMask(mask).filter((f) => (STORED_FLAGS as readonly string[]).includes(f));
}
