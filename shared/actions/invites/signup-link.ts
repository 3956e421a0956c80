import { hashConfirmationKey, isConfirmationKey } from "../../auth/confirmation-key.js";
import type { Deps } from "../../deps.js";
import { confirmationByHash } from "../../data/confirmations.js";
import { getInvite } from "../../data/invites.js";
import type { ConfirmationRecord } from "../../data/records/confirmation.js";
import type { InviteRecord } from "../../data/records/invite.js";
import type { RealmRecord } from "../../data/records/realm.js";
import { listRealmStreams } from "../../data/streams.js";
import { realmUrl } from "../../domain/email.js";
import { Role } from "../../domain/roles.js";
import { ConfirmationLinkError, RealmDeactivatedError, UnknownHostError } from "../../errors.js";

/**
 * The sign-up links of the web app's `/json/signup` endpoints (Zulip's
 * `confirmation/models.py` `get_object_from_key` with the invitation and
 * registration types): a key checked against its confirmation and, for
 * invitations, the invitation it confirms.
 */

/** The kinds of confirmation a sign-up accepts. */
export type SignupKind = "invitation" | "multiuse_invite" | "user_registration";

/** A sign-up link that may be used now. */
export interface SignupLink {
  keyHash: string;
  confirmation: ConfirmationRecord & { kind: SignupKind };
  /** The invitation, for `invitation` and `multiuse_invite` links. */
  invite?: InviteRecord;
}

/** What `GET /json/signup/{key}` answers (the contract between the server and the web app's sign-up page). */
export interface SignupInfo {
  kind: SignupKind;
  realm_name: string;
  realm_url: string;
  /** The address the account gets; null for a reusable link (the person gives theirs). */
  email: string | null;
  invited_as: number;
  /** Names of the streams the new user joins, in name order. */
  streams: string[];
}

/**
 * The organization of a sign-up request: known by its host, not deactivated.
 * @throws UnknownHostError 400 `Invalid subdomain` for an unknown host
 * @throws RealmDeactivatedError 401 for a deactivated organization
 */
export function checkSignupRealm(realm: RealmRecord | null): RealmRecord {
  if (!realm) throw new UnknownHostError();
  if (realm.deactivated) throw new RealmDeactivatedError();
  return realm;
}

/**
 * Loads a sign-up link: its confirmation (one strongly consistent GetItem)
 * and, for an invitation, the invitation (one more). Refused when the key
 * is malformed, unknown, another organization's, of another kind, revoked
 * (its confirmation is deleted), expired by the clock, or, single-use,
 * used.
 * @throws ConfirmationLinkError 400 `CONFIRMATION_NOT_FOUND` / `CONFIRMATION_EXPIRED` / `CONFIRMATION_USED`
 */
export async function accessSignupLink(deps: Deps, realm: RealmRecord, key: string): Promise<SignupLink> {
  if (!isConfirmationKey(key)) throw new ConfirmationLinkError("not_found");
  const keyHash = hashConfirmationKey(key);
  const confirmation = await confirmationByHash(deps, keyHash);
  if (
    !confirmation ||
    confirmation.realm_id !== realm.id ||
    !(["invitation", "multiuse_invite", "user_registration"] as string[]).includes(confirmation.kind)
  ) {
    throw new ConfirmationLinkError("not_found");
  }
  if (confirmation.used_at !== undefined) throw new ConfirmationLinkError("used");
  const now = Math.floor(deps.clock.now() / 1000);
  if (confirmation.expires_at !== null && confirmation.expires_at <= now) throw new ConfirmationLinkError("expired");
  const link: SignupLink = { keyHash, confirmation: confirmation as SignupLink["confirmation"] };
  if (confirmation.kind === "user_registration") return link;
  const invite = await getInvite(deps, realm.id, confirmation.kind === "multiuse_invite", confirmation.object_id);
  if (!invite || invite.revoked_at !== undefined || invite.key_hash !== keyHash) throw new ConfirmationLinkError("not_found");
  return { ...link, invite };
}

/**
 * `GET /json/signup/{key}`: what the sign-up page shows for a link: the
 * organization, the address (none for a reusable link), the role, and the
 * streams the new user will join (the invitation's, and the realm's default
 * streams when they are included). Reads: the link (one or two GetItems),
 * then one Query of the realm's streams.
 * @throws ConfirmationLinkError and the errors of {@link checkSignupRealm}
 */
export async function getSignupInfo(deps: Deps, realmOrNull: RealmRecord | null, key: string): Promise<SignupInfo> {
  const realm = checkSignupRealm(realmOrNull);
  const link = await accessSignupLink(deps, realm, key);
  const streams = await signupStreamNames(deps, realm, link.invite);
  return {
    kind: link.confirmation.kind,
    realm_name: realm.name,
    realm_url: realmUrl(realm, deps.config),
    email: link.confirmation.kind === "multiuse_invite" ? null : (link.confirmation.email ?? null),
    invited_as: link.invite?.invited_as ?? Role.MEMBER,
    streams,
  };
}

/** The names of the active streams a new user of this link joins (a guest joins no private default stream). */
async function signupStreamNames(deps: Deps, realm: RealmRecord, invite: InviteRecord | undefined): Promise<string[]> {
  const streams = (await listRealmStreams(deps, realm.id)).filter((s) => !s.deactivated);
  const invited = new Set(invite?.stream_ids ?? []);
  const withDefaults = invite === undefined || invite.include_realm_default_subscriptions;
  return streams
    .filter((s) => invited.has(s.stream_id) || (withDefaults && s.is_default && !s.invite_only))
    .map((s) => s.name)
    .sort((a, b) => a.localeCompare(b));
}
