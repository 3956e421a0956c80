import type { Deps, FilesDeps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessBotInList } from "../../access/bot.js";
import { getStreamsByIds } from "../../data/streams.js";
import { listRealmMembers, userById } from "../../data/users.js";
import { userConditions, writeUsers } from "../../data/user-writes.js";
import { withWriteRetries } from "../../data/retry.js";
import { avatarUrlFor } from "../../domain/avatar.js";
import { apiEmail } from "../../domain/email.js";
import { isRealmAdmin, isRealmOwner, Role } from "../../domain/roles.js";
import { JsonableError, OrganizationAdministratorRequiredError, OrganizationOwnerRequiredError } from "../../errors.js";
import { defaultStreamName } from "../../wire/bot.js";
import { wireRole } from "../../wire/user.js";
import {
  activeUserIds,
  botAdministratorIds,
  notifyRealmBotUpdates,
  notifyRealmUserUpdates,
  type RealmBotChange,
  type RealmUserUpdatePerson,
} from "../users/notify.js";
import { doSetUploadedAvatar, renderAvatarImages, type ImageUpload } from "../users/avatar.js";
import { checkFullName } from "../users/validation.js";
import { accessDefaultStream, checkBotNameAvailable } from "./create-bot.js";
import { notifyRealmBotAdd, notifyRealmBotDelete } from "./notify.js";
import { sendEvent } from "../../events/publish.js";

/** A `PATCH /bots/{bot_id}` request after parameter decoding; absent fields stay as they are. */
export interface BotUpdate {
  full_name?: string;
  role?: number;
  bot_owner_id?: number;
  /** A stream name, or `""` for none. */
  default_sending_stream?: string;
  /** A stream name, or `""` for none. */
  default_events_register_stream?: string;
  default_all_public_streams?: boolean;
}

/** A bot default stream as a request names it: undefined (unchanged), null (none) or the stream. */
async function resolveDefaultStream(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  name: string | undefined,
): Promise<StreamRecord | null | undefined> {
  if (name === undefined) return undefined;
  if (name === "") return null;
  return accessDefaultStream(deps, realm, caller, name);
}

/**
 * Zulip's checks of a bot owner change in `patch_bot_backend`.
 * @throws JsonableError 400 `Failed to change owner, no such user` /
 *   `Failed to change owner, user is deactivated` / `Failed to change owner, bots can't own other bots`
 */
function checkNewOwner(users: UserRecord[], ownerId: number): UserRecord {
  const owner = users.find((u) => u.user_id === ownerId);
  if (!owner) throw new JsonableError("Failed to change owner, no such user");
  if (!owner.is_active) throw new JsonableError("Failed to change owner, user is deactivated");
  if (owner.is_bot) throw new JsonableError("Failed to change owner, bots can't own other bots");
  return owner;
}

/**
 * Zulip's role rules for a bot (`patch_bot_backend`, as `update_user_backend`):
 * only owners give or take the owner role; only administrators change roles.
 * @throws OrganizationOwnerRequiredError / OrganizationAdministratorRequiredError 400
 */
function checkBotRoleChange(caller: UserRecord, bot: UserRecord, role: number): void {
  if ((role === Role.OWNER || bot.role === Role.OWNER) && !isRealmOwner(caller)) throw new OrganizationOwnerRequiredError();
  if (!isRealmAdmin(caller)) throw new OrganizationAdministratorRequiredError();
}

/**
 * The events of a bot owner change (Zulip's `do_change_bot_owner`): the
 * previous owner, unless an administrator, gets `realm_bot` `delete`; the
 * new owner, unless an administrator, `realm_bot` `add`; the other
 * administrators of the bot `realm_bot` `update` `{owner_id}`; and every
 * active user `realm_user` `update` `{bot_owner_id}`.
 */
async function notifyBotOwnerChange(
  deps: Deps,
  realm: RealmRecord,
  bot: UserRecord,
  previousOwner: UserRecord | undefined,
  users: UserRecord[],
): Promise<void> {
  const newOwnerId = bot.bot_owner_id!;
  const newOwner = users.find((u) => u.user_id === newOwnerId)!;
  const updateAudience = new Set(botAdministratorIds(bot, users));
  if (previousOwner && previousOwner.is_active && !isRealmAdmin(previousOwner)) {
    await notifyRealmBotDelete(deps, bot.user_id, [previousOwner.user_id]);
    updateAudience.delete(previousOwner.user_id);
  }
  if (!isRealmAdmin(newOwner)) {
    const ids = [bot.default_sending_stream_id, bot.default_events_register_stream_id].filter(
      (id): id is number => typeof id === "number",
    );
    const streams = ids.length > 0 ? await getStreamsByIds(deps, realm.id, ids) : new Map<number, StreamRecord>();
    await notifyRealmBotAdd(deps, realm, bot, streams, [newOwnerId]);
    updateAudience.delete(newOwnerId);
  }
  await sendEvent(deps, { type: "realm_bot", op: "update", bot: { user_id: bot.user_id, owner_id: newOwnerId } }, [
    ...updateAudience,
  ]);
  await notifyRealmUserUpdates(deps, [{ user_id: bot.user_id, bot_owner_id: newOwnerId }], activeUserIds(users));
}

/**
 * `PATCH /bots/{bot_id}` (Zulip's `patch_bot_backend`): the bot's owner or
 * an administrator changes its name, role (administrators only), owner and
 * default streams. Everything is checked before the one conditional write.
 *
 * Events, after the write: `realm_user` `update` for the name and role
 * (every active user); `realm_bot` `update` for the name and each default
 * stream (the bot's administrators); an owner change as
 * {@link notifyBotOwnerChange}.
 * @returns Zulip's answer: the bot's name, avatar, default streams, owner's email
 * @throws JsonableError 400 `No such bot`, `Insufficient permission`, `Name is already in use!`,
 *   the full-name errors, the owner-change errors, `Invalid channel name '<name>'`
 * @throws OrganizationOwnerRequiredError / OrganizationAdministratorRequiredError 400 for a role change
 */
export async function checkUpdateBot(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  botId: number,
  update: BotUpdate,
): Promise<Record<string, unknown>> {
  let streams: Promise<(StreamRecord | null | undefined)[]> | undefined;
  return withWriteRetries("update bot", async () => {
    const users = await listRealmMembers(deps, realm.id, { consistent: true });
    const bot = accessBotInList(users, caller, botId);
    // After the access check, as Zulip's access_bot_by_id comes first; read once across retries.
    const [sending, register] = await (streams ??= Promise.all([
      resolveDefaultStream(deps, realm, caller, update.default_sending_stream),
      resolveDefaultStream(deps, realm, caller, update.default_events_register_stream),
    ]));
    const fields: Partial<UserRecord> = {};
    const persons: RealmUserUpdatePerson[] = [];
    const botChanges: RealmBotChange[] = [];
    const checks: Parameters<typeof writeUsers>[3] = [];

    if (update.full_name !== undefined) {
      const name = checkFullName(update.full_name);
      if (name !== bot.full_name) {
        checkBotNameAvailable(users, name, bot.user_id);
        fields.full_name = name;
        persons.push({ user_id: bot.user_id, full_name: name });
        botChanges.push({ full_name: name });
      }
    }
    if (update.role !== undefined && update.role !== bot.role) {
      checkBotRoleChange(caller, bot, update.role);
      fields.role = update.role;
      persons.push({ user_id: bot.user_id, role: wireRole(update.role) });
    }
    let previousOwner: UserRecord | undefined;
    if (update.bot_owner_id !== undefined) {
      const owner = checkNewOwner(users, update.bot_owner_id);
      if (owner.user_id !== bot.bot_owner_id) {
        previousOwner = users.find((u) => u.user_id === bot.bot_owner_id);
        fields.bot_owner_id = owner.user_id;
        checks.push({ userId: owner.user_id, condition: userConditions.active() });
      }
    }
    if (sending !== undefined && (sending?.stream_id ?? null) !== (bot.default_sending_stream_id ?? null)) {
      fields.default_sending_stream_id = sending?.stream_id ?? null;
      botChanges.push({ default_sending_stream: sending?.name ?? null });
    }
    if (register !== undefined && (register?.stream_id ?? null) !== (bot.default_events_register_stream_id ?? null)) {
      fields.default_events_register_stream_id = register?.stream_id ?? null;
      botChanges.push({ default_events_register_stream: register?.name ?? null });
    }
    if (
      update.default_all_public_streams !== undefined &&
      update.default_all_public_streams !== (bot.default_all_public_streams ?? false)
    ) {
      fields.default_all_public_streams = update.default_all_public_streams;
      botChanges.push({ default_all_public_streams: update.default_all_public_streams });
    }

    if (Object.keys(fields).length > 0) {
      const written = await writeUsers(
        deps,
        realm.id,
        [{ userId: bot.user_id, fields, condition: userConditions.unchanged(bot) }],
        checks,
      );
      if (!written) return undefined;
    }
    const after: UserRecord = { ...bot, ...fields };
    const usersAfter = users.map((u) => (u.user_id === bot.user_id ? after : u));
    await notifyRealmUserUpdates(deps, persons, activeUserIds(usersAfter));
    await notifyRealmBotUpdates(deps, after, botChanges, usersAfter);
    if (fields.bot_owner_id !== undefined) await notifyBotOwnerChange(deps, realm, after, previousOwner, usersAfter);

    const streamNames = await botDefaultStreamNames(deps, realm, after);
    const owner = usersAfter.find((u) => u.user_id === after.bot_owner_id);
    return {
      full_name: after.full_name,
      avatar_url: avatarUrlFor(after, { clientGravatar: false, emailVisible: true }),
      service_interface: 1,
      service_payload_url: null,
      config_data: null,
      default_sending_stream: defaultStreamName(after.default_sending_stream_id, streamNames),
      default_events_register_stream: defaultStreamName(after.default_events_register_stream_id, streamNames),
      default_all_public_streams: after.default_all_public_streams ?? false,
      // Zulip leaves the owner out for an ownerless bot.
      ...(owner ? { bot_owner: apiEmail(owner, realm, deps.config) } : {}),
    };
  });
}

/**
 * `PATCH /bots/{bot_id}` with the body's files (Zulip's `patch_bot_backend`
 * with `upload_avatar_image`): no file changes no avatar; one image file
 * becomes the bot's avatar (`avatar_source` `U`, the next version, the
 * avatar events of `doSetUploadedAvatar`) after the other changes. The
 * access check and the image are checked before {@link checkUpdateBot}
 * writes anything.
 * @param maxBytes largest avatar file
 * @returns {@link checkUpdateBot}'s answer with the new `avatar_url`
 * @throws JsonableError the errors of {@link checkUpdateBot}; `You may only upload one file at a time`
 *   and the image errors of `checkSquareImages`
 */
export async function checkUpdateBotWithAvatar(
  deps: FilesDeps,
  realm: RealmRecord,
  caller: UserRecord,
  botId: number,
  update: BotUpdate,
  upload: ImageUpload,
  maxBytes: number,
): Promise<Record<string, unknown>> {
  if (upload.count === 0) return checkUpdateBot(deps, realm, caller, botId, update);
  accessBotInList(await listRealmMembers(deps, realm.id, { consistent: true }), caller, botId);
  const images = await renderAvatarImages(upload, maxBytes, "You may only upload one file at a time");
  const answer = await checkUpdateBot(deps, realm, caller, botId, update);
  const bot = await userById(deps, realm.id, botId);
  if (!bot) throw new JsonableError("No such bot");
  const after = await doSetUploadedAvatar(deps, bot, images);
  return { ...answer, avatar_url: avatarUrlFor(after, { clientGravatar: false, emailVisible: true }) };
}

/** The bot's default streams by ID (one BatchGetItem, none without defaults). */
async function botDefaultStreamNames(deps: Deps, realm: RealmRecord, bot: UserRecord): Promise<Map<number, StreamRecord>> {
  const ids = [bot.default_sending_stream_id, bot.default_events_register_stream_id].filter(
    (id): id is number => typeof id === "number",
  );
  return ids.length > 0 ? getStreamsByIds(deps, realm.id, ids) : new Map();
}
