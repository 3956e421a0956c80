import type { Deps, FilesDeps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessStreamByName } from "../../access/stream.js";
import { getUserIdByEmail, listRealmMembers } from "../../data/users.js";
import { isValidEmailLocalPart, realmHost } from "../../domain/email.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { BotType, isGuest, isRealmAdmin } from "../../domain/roles.js";
import {
  HumanUsersOnlyError,
  InvalidChannelNameError,
  JsonableError,
  OrganizationAdministratorRequiredError,
  StreamDoesNotExistError,
} from "../../errors.js";
import { avatarUrlFor } from "../../domain/avatar.js";
import { putAvatarImages, renderAvatarImages, type ImageUpload } from "../users/avatar.js";
import { doCreateUser } from "../users/create-user.js";
import { botAdministratorIds } from "../users/notify.js";
import { checkFullName } from "../users/validation.js";
import { notifyRealmBotAdd } from "./notify.js";

/** Zulip's `Realm.bot_creation_policy` values (feature level 283). */
export const BotCreationPolicy = {
  /** Everyone but guests may create every bot type. */
  EVERYONE: 1,
  /** Only administrators may create generic bots; others the remaining types. */
  LIMIT_GENERIC_BOTS: 2,
  ADMINS_ONLY: 3,
} as const;

/** A `POST /bots` request after parameter decoding. */
export interface NewBotRequest {
  full_name: string;
  short_name: string;
  /** @default BotType.DEFAULT */
  bot_type?: number;
  default_sending_stream?: string;
  default_events_register_stream?: string;
  default_all_public_streams?: boolean;
}

/** What `POST /bots` answers. */
export type NewBotResult = {
  user_id: number;
  api_key: string;
  avatar_url: string | null;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
};

/**
 * Zulip's `require_member_or_admin`: guests and bots may not manage bots.
 * @throws JsonableError 400 `Not allowed for guest users`
 * @throws HumanUsersOnlyError 400 `This endpoint does not accept bot requests.`
 */
export function requireMemberOrAdmin(caller: UserRecord): void {
  if (isGuest(caller)) throw new JsonableError("Not allowed for guest users");
  if (caller.is_bot) throw new HumanUsersOnlyError();
}

/**
 * Zulip's `check_bot_name_available`: no other active account of the
 * realm has this full name.
 * @throws JsonableError 400 `Name is already in use!`
 */
export function checkBotNameAvailable(users: UserRecord[], fullName: string, exceptUserId?: number): void {
  if (users.some((u) => u.is_active && u.user_id !== exceptUserId && u.full_name === fullName)) {
    throw new JsonableError("Name is already in use!");
  }
}

/**
 * Zulip's `check_bot_creation_policy` and `check_valid_bot_type`: the
 * realm's `bot_creation_policy`, then whether the type exists here
 * (generic, incoming webhook, outgoing webhook; embedded bots are off, as
 * on a Zulip server without `EMBEDDED_BOTS_ENABLED`).
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError 400 `Invalid bot type`
 */
export function checkBotCreationPolicy(realm: RealmRecord, caller: UserRecord, botType: number): void {
  const policy = realmSettings(realm).bot_creation_policy;
  if (!isRealmAdmin(caller)) {
    if (policy === BotCreationPolicy.ADMINS_ONLY) throw new OrganizationAdministratorRequiredError();
    if (policy === BotCreationPolicy.LIMIT_GENERIC_BOTS && botType === BotType.DEFAULT) {
      throw new OrganizationAdministratorRequiredError();
    }
  }
  const allowed: number[] = [BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK];
  if (isRealmAdmin(caller) || policy !== BotCreationPolicy.LIMIT_GENERIC_BOTS) allowed.push(BotType.DEFAULT);
  if (!allowed.includes(botType)) throw new JsonableError("Invalid bot type");
}

/**
 * A stream named as a bot's default stream, which the caller must be able
 * to access (Zulip's `access_stream_by_name`).
 * @throws InvalidChannelNameError 400 `Invalid channel name '<name>'`
 */
export async function accessDefaultStream(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  name: string,
): Promise<StreamRecord> {
  try {
    return (await accessStreamByName(deps, caller, realm, name)).stream;
  } catch (err) {
    if (err instanceof StreamDoesNotExistError) throw new InvalidChannelNameError(name);
    throw err;
  }
}

/**
 * `POST /bots` (Zulip's `add_bot_backend`): creates a bot owned by the
 * caller, with the email `<short_name>-bot@<realm host>`. Checks, in
 * Zulip's order: the caller ({@link requireMemberOrAdmin}), the short name
 * and full name, the email's shape and that it is free, the bot's name
 * ({@link checkBotNameAvailable}), the creation policy and the bot type,
 * then the default streams. Nothing is written before all pass.
 *
 * Events: `realm_user` `add` to every active user (from `doCreateUser`),
 * then `realm_bot` `add` to the bot's administrators (the realm's
 * administrators and the caller).
 * An uploaded avatar (one image file in a multipart body, Zulip's
 * `upload_avatar_image`) is checked and rendered after the creation policy,
 * before any write; the bot is created with `avatar_source` `U` and its
 * images stored at version 1, so every event already names them.
 * @param upload the body's file parts (none: the gravatar)
 * @param maxBytes largest avatar file
 * @throws JsonableError 400 `Bad name or username`, `Username already in use`,
 *   `Name is already in use!`, `Invalid bot type`, the full-name errors of `checkFullName`,
 *   `Not allowed for guest users`, `You may only upload one file at a time`, the image errors of
 *   `checkSquareImages`
 * @throws OrganizationAdministratorRequiredError / HumanUsersOnlyError / InvalidChannelNameError 400
 */
export async function checkCreateBot(
  deps: FilesDeps,
  realm: RealmRecord,
  caller: UserRecord,
  req: NewBotRequest,
  upload: ImageUpload = { files: [], count: 0 },
  maxBytes = 0,
): Promise<NewBotResult> {
  requireMemberOrAdmin(caller);
  const shortName = req.short_name.trim();
  if (shortName === "") throw new JsonableError("Bad name or username");
  const fullName = checkFullName(req.full_name);
  if (!isValidEmailLocalPart(`${shortName}-bot`)) throw new JsonableError("Bad name or username");
  const email = `${shortName}-bot@${realmHost(realm, deps.config).replace(/:\d+$/, "")}`;
  const [takenId, users] = await Promise.all([
    getUserIdByEmail(deps, realm.id, email),
    listRealmMembers(deps, realm.id, { consistent: true }),
  ]);
  if (takenId !== undefined) throw new JsonableError("Username already in use");
  checkBotNameAvailable(users, fullName);
  const botType = req.bot_type ?? BotType.DEFAULT;
  checkBotCreationPolicy(realm, caller, botType);
  const avatar = upload.count === 0 ? undefined : await renderAvatarImages(upload, maxBytes, "You may only upload one file at a time");

  const [sending, register] = await Promise.all([
    req.default_sending_stream !== undefined ? accessDefaultStream(deps, realm, caller, req.default_sending_stream) : undefined,
    req.default_events_register_stream !== undefined
      ? accessDefaultStream(deps, realm, caller, req.default_events_register_stream)
      : undefined,
  ]);

  const bot = await doCreateUser(deps, realm, {
    email,
    full_name: fullName,
    is_bot: true,
    bot_type: botType,
    bot_owner_id: caller.user_id,
    avatar_source: avatar ? "U" : "G",
    bot_defaults: {
      default_sending_stream_id: sending?.stream_id ?? null,
      default_events_register_stream_id: register?.stream_id ?? null,
      default_all_public_streams: req.default_all_public_streams ?? false,
    },
  });
  if (avatar) await putAvatarImages(deps, bot, bot.avatar_version, avatar);
  const streams = new Map<number, StreamRecord>();
  for (const s of [sending, register]) if (s) streams.set(s.stream_id, s);
  await notifyRealmBotAdd(deps, realm, bot, streams, botAdministratorIds(bot, [...users, bot]));
  return {
    user_id: bot.user_id,
    api_key: bot.api_key,
    avatar_url: avatarUrlFor(bot, { clientGravatar: false, emailVisible: true }),
    default_sending_stream: sending?.name ?? null,
    default_events_register_stream: register?.name ?? null,
    default_all_public_streams: bot.default_all_public_streams ?? false,
  };
}
