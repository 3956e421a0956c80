import { accessStreamById } from "../../access/stream.js";
import type { Deps } from "../../deps.js";
import type { InviteRecord } from "../../data/records/invite.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";
import {
  DEFAULT_INVITE_EXPIRY_MINUTES,
  INVITE_AS_VALUES,
  inviteRoleRefusal,
  MAX_INVITE_EXPIRY_MINUTES,
} from "../../domain/invites.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { canSubscribeOtherUsers } from "../../domain/stream-permissions.js";
import {
  JsonableError,
  OrganizationAdministratorRequiredError,
  OrganizationOwnerRequiredError,
} from "../../errors.js";

/**
 * Checks that the invitation endpoints share (Zulip's `zerver/views/invite.py`).
 */

/** What an invitation asks for, as `POST /invites` and `POST /invites/multiuse` receive it. */
export interface InviteOptions {
  /** Minutes until the link expires; null never; undefined: the default (10 days). */
  invite_expires_in_minutes?: number | null;
  /** @default 400 (member) */
  invite_as?: number;
  stream_ids: number[];
  /** @default false */
  include_realm_default_subscriptions?: boolean;
  /** @default true */
  notify_referrer_on_join?: boolean;
}

/**
 * Zulip's `check_role_based_permissions`: an owner invitation needs an
 * owner; an administrator or moderator invitation (or, with
 * `requireAdmin`, any invitation someone else made) an administrator.
 * @throws OrganizationOwnerRequiredError 400 `Must be an organization owner`
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 */
export function checkInviteRole(invitedAs: number, user: UserRecord, requireAdmin = false): void {
  const refusal = inviteRoleRefusal(invitedAs, user);
  if (refusal === "owner") throw new OrganizationOwnerRequiredError();
  if (refusal === "admin" || (requireAdmin && !isRealmAdmin(user))) throw new OrganizationAdministratorRequiredError();
}

/**
 * The role and expiry of an invitation, checked.
 * @param nowSeconds UNIX seconds
 * @returns the role and the link's expiry (UNIX seconds, or null)
 * @throws JsonableError 400 `Invalid invite_as`, `Invalid invite_expires_in_minutes`
 */
export function checkInviteTerms(options: InviteOptions, nowSeconds: number): { invitedAs: number; expiresAt: number | null } {
  const invitedAs = options.invite_as ?? 400;
  if (!INVITE_AS_VALUES.includes(invitedAs)) throw new JsonableError("Invalid invite_as");
  const minutes = options.invite_expires_in_minutes === undefined ? DEFAULT_INVITE_EXPIRY_MINUTES : options.invite_expires_in_minutes;
  if (minutes !== null && (!Number.isSafeInteger(minutes) || minutes < 1 || minutes > MAX_INVITE_EXPIRY_MINUTES)) {
    throw new JsonableError("Invalid invite_expires_in_minutes");
  }
  return { invitedAs, expiresAt: minutes === null ? null : nowSeconds + minutes * 60 };
}

/**
 * The invitation's streams: each one the caller may access (Zulip's
 * `access_stream_by_id`, so a private stream only for its subscribers),
 * and, when there are any, the caller may subscribe others
 * (`invite_to_stream_policy`). One read per stream, in parallel.
 * @throws JsonableError 400 `Invalid channel ID <id>. No invites were sent.`,
 *   `You do not have permission to subscribe other users to channels.`
 */
export async function checkInviteStreams(deps: Deps, realm: RealmRecord, user: UserRecord, streamIds: number[]): Promise<StreamRecord[]> {
  const unique = [...new Set(streamIds)];
  const streams = await Promise.all(
    unique.map(async (id) => {
      try {
        return (await accessStreamById(deps, user, realm, id)).stream;
      } catch (err) {
        if (err instanceof JsonableError) throw new JsonableError(`Invalid channel ID ${id}. No invites were sent.`);
        throw err;
      }
    }),
  );
  if (streams.length > 0 && !canSubscribeOtherUsers(user, realm)) {
    throw new JsonableError("You do not have permission to subscribe other users to channels.");
  }
  return streams;
}

/**
 * Whether an invitation is open (Zulip's `filter_to_valid_prereg_users`):
 * not revoked and not expired.
 * @param nowSeconds UNIX seconds
 */
export function isOpenInvite(invite: InviteRecord, nowSeconds: number): boolean {
  return invite.revoked_at === undefined && (invite.expires_at === null || invite.expires_at > nowSeconds);
}
