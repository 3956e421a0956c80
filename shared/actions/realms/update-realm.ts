import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { applyRealmChange } from "../../data/realms.js";
import { getStreamsByIds } from "../../data/streams.js";
import { listRealmUserGroups } from "../../data/user-groups.js";
import { listActiveRealmUsers } from "../../data/users.js";
import {
  REALM_GROUP_SETTING_DEFAULTS,
  REALM_GROUP_SETTINGS_REQUIRING_SYSTEM_GROUP,
  REALM_SETTING_DEFAULTS,
  realmSettings,
  SYSTEM_GROUP_ID_BASE,
  SYSTEM_GROUPS,
  systemGroupId,
  type SystemGroupName,
} from "../../domain/realm-settings.js";
import { isRealmAdmin, isRealmOwner } from "../../domain/roles.js";
import { InvalidChannelIdError, JsonableError, OrganizationAdministratorRequiredError, OrganizationOwnerRequiredError } from "../../errors.js";
import { notifyRealmUpdate, notifyRealmUpdateDict, type RealmEventValue } from "./notify.js";

export type RealmGroupSettingName = keyof typeof REALM_GROUP_SETTING_DEFAULTS;

/** What `PATCH /realm` asks to change; absent means unchanged. Values are type-checked by the endpoint. */
export interface RealmUpdate {
  name?: string;
  description?: string;
  /** Simple settings (keys of `REALM_SETTING_DEFAULTS`), already decoded: time limits as seconds or null. */
  settings: Record<string, RealmEventValue | undefined>;
  /** Channel-valued settings: a channel ID, or -1 for none. */
  streams: Record<string, number | undefined>;
  /** Group-valued settings: the new group ID and, optionally, the value the client expects to replace. */
  groups: Partial<Record<RealmGroupSettingName, { new: number; old?: number } | undefined>>;
  /** Present (null): convert a demo organization into a normal one. */
  demo_organization_scheduled_deletion_date?: null;
}

/** Settings only organization owners may change (Zulip's `update_realm`). */
const OWNER_ONLY = new Set([
  "invite_required",
  "create_multiuse_invite_group",
  "emails_restricted_to_domains",
  "disallow_disposable_email_addresses",
  "waiting_period_threshold",
  "message_retention_days",
]);

/** Settings Zulip announces in the `update_dict` form (for historical reasons) rather than `update`. */
const UPDATE_DICT_SETTINGS = new Set(["allow_message_editing", "edit_topic_policy", "message_content_edit_limit_seconds"]);

/** The system groups each group-valued setting may not name (Zulip's permission configurations). */
const FORBIDDEN_GROUPS: Record<RealmGroupSettingName, readonly SystemGroupName[]> = {
  can_access_all_users_group: ["role:internet", "role:owners", "role:administrators", "role:moderators", "role:fullmembers", "role:nobody"],
  can_create_private_channel_group: ["role:internet", "role:everyone", "role:owners", "role:nobody"],
  can_create_public_channel_group: ["role:internet", "role:everyone", "role:owners", "role:nobody"],
  can_create_web_public_channel_group: ["role:internet", "role:everyone", "role:members", "role:fullmembers"],
  can_delete_any_message_group: ["role:internet", "role:everyone"],
  create_multiuse_invite_group: ["role:internet", "role:everyone"],
  direct_message_initiator_group: ["role:internet"],
  direct_message_permission_group: ["role:internet"],
};

/** The legacy stream-creation policies and the group setting each one also sets (1 members, 2 admins, 3 full members, 4 moderators). */
const POLICY_GROUPS: Record<string, { setting: RealmGroupSettingName; groups: Record<number, SystemGroupName> }> = {
  create_public_stream_policy: {
    setting: "can_create_public_channel_group",
    groups: { 1: "role:members", 2: "role:administrators", 3: "role:fullmembers", 4: "role:moderators" },
  },
  create_private_stream_policy: {
    setting: "can_create_private_channel_group",
    groups: { 1: "role:members", 2: "role:administrators", 3: "role:fullmembers", 4: "role:moderators" },
  },
};

/** The system group a group ID names in this realm, or undefined. */
function systemGroupNameOf(realmId: number, groupId: number): SystemGroupName | undefined {
  const index = groupId - SYSTEM_GROUP_ID_BASE - realmId * 16;
  return index >= 0 && index < SYSTEM_GROUPS.length ? SYSTEM_GROUPS[index]!.name : undefined;
}

/** Zulip's response value for a changed setting: strings are reported as `"updated"`. */
const reported = (v: RealmEventValue): RealmEventValue => (typeof v === "string" ? "updated" : v);

/**
 * `PATCH /realm` (Zulip's `update_realm`): an organization administrator
 * changes organization settings.
 *
 * Everything is checked before the one write: owners only for
 * `invite_required`, `create_multiuse_invite_group`,
 * `emails_restricted_to_domains`, `disallow_disposable_email_addresses`,
 * `waiting_period_threshold`, `message_retention_days` and the demo
 * conversion; channel-valued settings name a channel of the organization
 * (or -1); group-valued settings name one of its system groups the setting
 * allows or, where Zulip does not require a system group, one of its
 * user-created groups (read only then), and `old`, when given, must be the
 * current value. The legacy
 * `create_public_stream_policy` / `create_private_stream_policy` also set
 * the group setting that decides (`can_create_*_channel_group`). Unchanged
 * values are skipped.
 *
 * The realm record keeps only values that differ from the defaults, each
 * setting its own document path (one UpdateItem, conditional on the realm
 * still being a demo organization for the conversion). Events, after the
 * write, to the realm's active users, one per changed setting: `realm`
 * `update_dict` for the message-edit and group-valued settings and the
 * demo conversion, `realm` `update` `{property, value}` for the others
 * (`name` and `description` included).
 * @returns Zulip's response data: each changed setting with its new value (`"updated"` for strings)
 * @throws OrganizationAdministratorRequiredError / OrganizationOwnerRequiredError 400
 * @throws InvalidChannelIdError 400 `Invalid channel ID`
 * @throws JsonableError 400 `Invalid user group`, `'<setting>' setting cannot be set to '<group>' group.`,
 *   `'<setting>' must be a system user group.`,
 *   `'old' value does not match the expected value.`, `Must be a demo organization.`
 */
export async function checkUpdateRealm(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  update: RealmUpdate,
): Promise<Record<string, unknown>> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const requested = [
    ...Object.keys(update.settings).filter((k) => update.settings[k] !== undefined),
    ...Object.keys(update.groups).filter((k) => update.groups[k as RealmGroupSettingName] !== undefined),
  ];
  const clearsDemo = update.demo_organization_scheduled_deletion_date === null;
  if ((requested.some((k) => OWNER_ONLY.has(k)) || clearsDemo) && !isRealmOwner(user)) {
    throw new OrganizationOwnerRequiredError();
  }
  if (clearsDemo && realm.demo_organization_scheduled_deletion_date === undefined) {
    throw new JsonableError("Must be a demo organization.");
  }

  const current = realmSettings(realm);
  const streamIds = Object.values(update.streams).filter((id): id is number => id !== undefined && id >= 0);
  const streams = streamIds.length ? await getStreamsByIds(deps, realm.id, streamIds) : new Map<number, StreamRecord>();
  for (const id of streamIds) if (!streams.get(id) || streams.get(id)!.deactivated) throw new InvalidChannelIdError();

  const changes: [string, RealmEventValue][] = [];
  const groupChanges: [string, number][] = [];
  for (const [name, value] of Object.entries(update.settings)) {
    if (value === undefined || current[name] === value) continue;
    changes.push([name, value]);
    const policy = POLICY_GROUPS[name];
    if (policy && typeof value === "number") {
      const groupId = systemGroupId(realm.id, policy.groups[value]!);
      if (current[policy.setting] !== groupId) groupChanges.push([policy.setting, groupId]);
    }
  }
  for (const [name, id] of Object.entries(update.streams)) {
    if (id !== undefined && current[name] !== id) changes.push([name, id]);
  }
  const groupUpdates = Object.entries(update.groups) as [RealmGroupSettingName, { new: number; old?: number } | undefined][];
  // User-created groups are read only when a value names one.
  const namesUserGroup = groupUpdates.some(([, c]) => c !== undefined && !systemGroupNameOf(realm.id, c.new));
  const userGroupIds = namesUserGroup ? new Set((await listRealmUserGroups(deps, realm.id)).groups.map((g) => g.id)) : new Set();
  for (const [name, change] of groupUpdates) {
    if (!change) continue;
    const group = systemGroupNameOf(realm.id, change.new);
    if (!group) {
      if (!userGroupIds.has(change.new)) throw new JsonableError("Invalid user group");
      if (REALM_GROUP_SETTINGS_REQUIRING_SYSTEM_GROUP.has(name)) throw new JsonableError(`'${name}' must be a system user group.`);
    } else if (FORBIDDEN_GROUPS[name].includes(group)) {
      throw new JsonableError(`'${name}' setting cannot be set to '${group}' group.`);
    }
    if (change.old !== undefined && change.old !== current[name]) {
      throw new JsonableError("'old' value does not match the expected value.");
    }
    if (current[name] !== change.new && !groupChanges.some(([n]) => n === name)) groupChanges.push([name, change.new]);
  }

  const fields: { name?: string; description?: string } = {};
  if (update.name !== undefined && update.name !== realm.name) fields.name = update.name;
  if (update.description !== undefined && update.description !== realm.description) fields.description = update.description;

  const defaults: Record<string, unknown> = { ...REALM_SETTING_DEFAULTS };
  for (const [k, g] of Object.entries(REALM_GROUP_SETTING_DEFAULTS)) defaults[k] = systemGroupId(realm.id, g);
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const [name, value] of [...changes, ...groupChanges]) {
    if (defaults[name] === value) remove.push(name);
    else set[name] = value;
  }
  const nothing = Object.keys(fields).length === 0 && changes.length === 0 && groupChanges.length === 0;
  if (nothing && !clearsDemo) return {};
  const written = await applyRealmChange(
    deps,
    realm.id,
    { fields, settings: { set, remove }, removeDemoDeletionDate: clearsDemo ? realm.demo_organization_scheduled_deletion_date : undefined },
  );
  if (!written) throw new JsonableError("Must be a demo organization.");

  const audience = (await listActiveRealmUsers(deps, realm.id)).map((u) => u.user_id);
  const data: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    await notifyRealmUpdate(deps, name, value, audience);
    data[name] = reported(value);
  }
  for (const [name, value] of changes) {
    if (UPDATE_DICT_SETTINGS.has(name)) await notifyRealmUpdateDict(deps, { [name]: value }, audience);
    else await notifyRealmUpdate(deps, name, value, audience);
    data[name] = reported(value);
  }
  for (const [name, value] of groupChanges) {
    await notifyRealmUpdateDict(deps, { [name]: value }, audience);
    data[name] = value;
  }
  if (clearsDemo) await notifyRealmUpdateDict(deps, { demo_organization_scheduled_deletion_date: null }, audience);
  return data;
}
