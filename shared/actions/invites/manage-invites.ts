import { generateConfirmationKey, hashConfirmationKey } from "../../auth/confirmation-key.js";
import { checkMemberOrAdmin } from "../../access/user-group.js";
import type { Deps } from "../../deps.js";
import { allocateIds } from "../../data/counters.js";
import { getInvite, listRealmInvites, putInvitesWithLinks, revokeInvite } from "../../data/invites.js";
import type { InviteRecord } from "../../data/records/invite.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { canCreateMultiuseInvite } from "../../domain/invites.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { InsufficientPermissionError, JsonableError } from "../../errors.js";
import {
  checkInviteRole,
  checkInviteStreams,
  checkInviteTerms,
  isOpenInvite,
  type InviteOptions,
} from "./check-invite.js";
import { joinLinkUrl } from "./emails.js";
import { accessUserInvite } from "./invite-users.js";
import { notifyInvitesChanged } from "./notify.js";

const nowSeconds = (deps: Deps) => Math.floor(deps.clock.now() / 1000);

/** One invitation as `GET /invites` lists it (OpenAPI `Invite`). */
export type InviteWire =
  | {
      id: number;
      invited_by_user_id: number;
      invited: number;
      expiry_date: number | null;
      invited_as: number;
      email: string;
      notify_referrer_on_join: boolean;
      is_multiuse: false;
    }
  | { id: number; invited_by_user_id: number; invited: number; expiry_date: number | null; invited_as: number; link_url: string; is_multiuse: true };

function inviteToWire(deps: Deps, realm: RealmRecord, invite: InviteRecord): InviteWire {
  const common = {
    id: invite.id,
    invited_by_user_id: invite.referred_by,
    invited: invite.invited_at,
    expiry_date: invite.expires_at,
    invited_as: invite.invited_as,
  };
  return invite.is_multiuse
    ? { ...common, link_url: joinLinkUrl(realm, deps.config, invite.link_key!), is_multiuse: true }
    : { ...common, email: invite.email!, notify_referrer_on_join: invite.notify_referrer_on_join, is_multiuse: false };
}

/**
 * `GET /invites` (https://zulip.com/api/get-invites; Zulip's
 * `do_get_invites_controlled_by_user`): the open (not revoked, unexpired,
 * unused) invitations the caller manages: an administrator's are all of
 * the realm's, anyone else's their own. Email invitations first, then
 * links, each in ID order. One Query of the realm's invitations.
 * @throws JsonableError 400 for guests and bots ({@link checkMemberOrAdmin})
 */
export async function getInvitesControlledByUser(deps: Deps, realm: RealmRecord, user: UserRecord): Promise<InviteWire[]> {
  checkMemberOrAdmin(user);
  const now = nowSeconds(deps);
  const invites = (await listRealmInvites(deps, realm.id)).filter(
    (invite) => isOpenInvite(invite, now) && (isRealmAdmin(user) || invite.referred_by === user.user_id),
  );
  // The partition's sort order: EMAIL# before MULTIUSE#, IDs ascending.
  return invites.map((invite) => inviteToWire(deps, realm, invite));
}

/**
 * `POST /invites/multiuse` (https://zulip.com/api/create-invite-link;
 * Zulip's `generate_multiuse_invite_backend` and
 * `do_create_multiuse_invite_link`): a reusable invitation link
 * (`/join/<key>/`), for members of `create_multiuse_invite_group`, with
 * the role and stream checks of `POST /invites`. Writes the invitation and
 * its link in one transaction and sends `invites_changed`.
 * @returns the link's URL
 * @throws JsonableError 400 `Insufficient permission`, and those of {@link checkInviteRole},
 *   {@link checkInviteTerms}, {@link checkInviteStreams}, {@link checkMemberOrAdmin}
 */
export async function doCreateMultiuseInvite(deps: Deps, realm: RealmRecord, user: UserRecord, options: InviteOptions): Promise<string> {
  checkMemberOrAdmin(user);
  if (!canCreateMultiuseInvite(realm, user)) throw new InsufficientPermissionError();
  const now = nowSeconds(deps);
  const { invitedAs, expiresAt } = checkInviteTerms(options, now);
  checkInviteRole(invitedAs, user);
  const streams = await checkInviteStreams(deps, realm, user, options.stream_ids);
  const id = await allocateIds(deps, "multiuse_invite");
  const key = generateConfirmationKey();
  const invite: InviteRecord = {
    realm_id: realm.id,
    id,
    is_multiuse: true,
    referred_by: user.user_id,
    invited_as: invitedAs,
    invited_at: now,
    expires_at: expiresAt,
    stream_ids: streams.map((s) => s.stream_id),
    include_realm_default_subscriptions: options.include_realm_default_subscriptions ?? false,
    // Zulip's reusable links always tell their creator (`notify_referrer_on_join` defaults to true).
    notify_referrer_on_join: options.notify_referrer_on_join ?? true,
    key_hash: hashConfirmationKey(key),
    link_key: key,
  };
  await putInvitesWithLinks(deps, [
    { invite, confirmation: { realm_id: realm.id, kind: "multiuse_invite", object_id: id, created_at: now, expires_at: expiresAt } },
  ]);
  await notifyInvitesChanged(deps, realm, [user.user_id]);
  return joinLinkUrl(realm, deps.config, key);
}

/**
 * `DELETE /invites/{invite_id}` (https://zulip.com/api/revoke-email-invite;
 * Zulip's `revoke_user_invite` and `do_revoke_user_invite`): revokes an
 * email invitation the caller manages; its link stops working at once
 * (the confirmation is deleted, so following it says "not found").
 * Revoking a revoked invitation again succeeds, as in Zulip. Sends
 * `invites_changed`.
 * @throws JsonableError 400 `No such invitation`, and those of {@link accessUserInvite}
 */
export async function doRevokeUserInvite(deps: Deps, realm: RealmRecord, user: UserRecord, inviteId: number): Promise<void> {
  const invite = await accessUserInvite(deps, realm, user, inviteId);
  await revokeInvite(deps, invite, nowSeconds(deps));
  await notifyInvitesChanged(deps, realm, [invite.referred_by]);
}

/**
 * `DELETE /invites/multiuse/{invite_id}` (https://zulip.com/api/revoke-invite-link;
 * Zulip's `revoke_multiuse_invite` and `do_revoke_multi_use_invite`):
 * revokes a reusable link the caller created, or any link for an
 * administrator (an owner link only for an owner). Sends `invites_changed`.
 * @throws JsonableError 400 `No such invitation`, `Invitation has already been revoked`,
 *   and those of {@link checkInviteRole}, {@link checkMemberOrAdmin}
 */
export async function doRevokeMultiInvite(deps: Deps, realm: RealmRecord, user: UserRecord, inviteId: number): Promise<void> {
  checkMemberOrAdmin(user);
  const invite = await getInvite(deps, realm.id, true, inviteId);
  if (!invite) throw new JsonableError("No such invitation");
  if (invite.referred_by !== user.user_id) checkInviteRole(invite.invited_as, user, true);
  if (invite.revoked_at !== undefined || !(await revokeInvite(deps, invite, nowSeconds(deps)))) {
    throw new JsonableError("Invitation has already been revoked");
  }
  await notifyInvitesChanged(deps, realm, [invite.referred_by]);
}
