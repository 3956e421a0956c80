import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStreamsByNames } from "../../data/streams.js";
import { getSubscriptionsByPairs } from "../../data/subscriptions.js";
import { listActiveRealmUsers } from "../../data/users.js";

import { apiEmail } from "../../domain/email.js";
import { isGuest, isRealmAdmin, isRealmOwner } from "../../domain/roles.js";
import {
  canCreateStreams,
  streamCreationSetting,
  canCreateWebPublicStreams,
  canSubscribeOtherUsers,
  hasBasicStreamAccess,
  parseMessageRetentionDays,
  webPublicStreamsEnabled,
} from "../../domain/stream-permissions.js";
import { JsonableError, OrganizationOwnerRequiredError } from "../../errors.js";
import { realmSettingGroupMembership } from "../../access/user-group.js";
import { isFullMember } from "../../domain/realm-settings.js";
import { doAddSubscriptions } from "./bulk-subscriptions.js";
import { doCreateStreams, type NewStream } from "./create-streams.js";
import { accessPrincipals } from "./principals.js";
import { checkStreamName, stripStreamName } from "./stream-names.js";

/** The parameters of `POST /users/me/subscriptions`, typed by the endpoint. */
export interface SubscribeRequest {
  subscriptions: { name: string; description?: string; color?: string }[];
  /** User IDs or API emails; absent or empty: the caller. */
  principals?: (number | string)[];
  authorizationErrorsFatal: boolean;
  /** Accepted; announcing new streams needs the notification bot, which we do not run. */
  announce: boolean;
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  historyPublicToSubscribers?: boolean;
  streamPostPolicy: number;
  /** `realm_default`, `unlimited` or a number of days (only used for streams created). */
  messageRetentionDays: string | number;
}

/** The success fields of `POST /users/me/subscriptions`. */
export interface SubscribeResult {
  /** API email of each newly subscribed user → stream names. */
  subscribed: Record<string, string[]>;
  /** API email of each user who already was subscribed → stream names. */
  already_subscribed: Record<string, string[]>;
  /** Present when `authorization_errors_fatal` is false: private streams the caller may not join. */
  unauthorized?: string[];
}

const insufficientPermission = () => new JsonableError("Insufficient permission");

/**
 * `POST /users/me/subscriptions` (https://zulip.com/api/subscribe;
 * Zulip's `add_subscriptions_backend`):
 * subscribes the caller, or the `principals`, to streams by name, creating
 * the streams that do not exist with the given settings.
 *
 * Checks, in Zulip's order, before anything is written: guests may not use
 * this endpoint; names are checked; creating streams needs the right to
 * create streams (members and above), `is_default_stream` needs an
 * administrator (and a public stream), web-public streams need the
 * organization's spectator access and an owner, `message_retention_days`
 * needs an owner; existing private streams the caller is not subscribed to
 * are unauthorized (an error, or listed in `unauthorized` when
 * `authorization_errors_fatal` is false); subscribing others needs the
 * right to add subscribers and known, active principals.
 *
 * Response keys are the users' API emails, as the OpenAPI description of
 * feature level 283 documents (Zulip switched to user IDs later).
 *
 * @throws JsonableError 400 for each refusal above (`Not allowed for guest users`,
 *   `Insufficient permission`, `Unable to access channel (<name>).`,
 *   `A default channel cannot be private.`, `Web-public channels are not enabled.`,
 *   `Must be an organization owner`, `No such user`, name errors)
 */
export async function checkSubscribe(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  req: SubscribeRequest,
): Promise<SubscribeResult> {
  if (isGuest(user)) throw new JsonableError("Not allowed for guest users");

  // Names: stripped, checked, deduplicated case-insensitively (first spelling wins).
  const wanted: { name: string; description: string; color?: string }[] = [];
  const seen = new Set<string>();
  for (const s of req.subscriptions) {
    const name = stripStreamName(s.name);
    checkStreamName(name);
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    // Zulip does not allow newlines in stream descriptions.
    wanted.push({ name, description: (s.description ?? "").replace(/\n/g, " "), color: s.color });
  }
  const retentionDays = parseMessageRetentionDays(req.messageRetentionDays);

  const existingByName = await getStreamsByNames(deps, realm.id, wanted.map((w) => w.name));
  const missing = wanted.filter((w) => !existingByName.has(w.name.toLowerCase()));
  if (missing.length > 0) {
    const kind = req.inviteOnly ? "private" : "public";
    const isMember = await realmSettingGroupMembership(deps, realm, user, [streamCreationSetting(kind)]);
    const fullMember = isFullMember(realm, user, Math.floor(deps.clock.now() / 1000));
    if (!canCreateStreams({ role: user.role, fullMember }, realm, kind, isMember)) throw insufficientPermission();
    if (req.isDefaultStream && !isRealmAdmin(user)) throw insufficientPermission();
    if (req.inviteOnly && req.isDefaultStream) throw new JsonableError("A default channel cannot be private.");
    if (req.isWebPublic) {
      if (!webPublicStreamsEnabled(realm)) throw new JsonableError("Web-public channels are not enabled.");
      if (!canCreateWebPublicStreams(user, realm)) throw insufficientPermission();
    }
    if (retentionDays !== null && !isRealmOwner(user)) throw new OrganizationOwnerRequiredError();
  }

  const existing = wanted.flatMap((w) => {
    const stream = existingByName.get(w.name.toLowerCase());
    return stream ? [stream] : [];
  });
  const ownSubs = await getSubscriptionsByPairs(
    deps,
    existing.map((s) => ({ userId: user.user_id, streamId: s.stream_id })),
  );
  const ownSubByStream = new Map(ownSubs.map((sub) => [sub.stream_id, sub]));
  const authorized = (s: StreamRecord) => hasBasicStreamAccess(user, s, ownSubByStream.get(s.stream_id));
  const unauthorized = existing.filter((s) => !authorized(s));
  if (unauthorized.length > 0 && req.authorizationErrorsFatal) {
    throw new JsonableError(`Unable to access channel (${unauthorized[0]!.name}).`);
  }

  const principals = req.principals ?? [];
  let subscribers: UserRecord[] = [user];
  if (principals.length > 0) {
    const resolved = await accessPrincipals(deps, realm, principals);
    if (resolved.some((u) => u.user_id !== user.user_id)) {
      if (!canSubscribeOtherUsers(user, realm)) throw insufficientPermission();
    }
    subscribers = resolved;
  }

  // Read once for both the creation and the subscription events (only needed when creating).
  const activeUsers = missing.length > 0 ? await listActiveRealmUsers(deps, realm.id) : undefined;
  const specs: NewStream[] = missing.map((w) => ({
    name: w.name,
    description: w.description,
    invite_only: req.inviteOnly,
    is_web_public: req.isWebPublic,
    history_public_to_subscribers: req.historyPublicToSubscribers,
    stream_post_policy: req.streamPostPolicy,
    message_retention_days: retentionDays,
    is_default: req.isDefaultStream,
  }));
  const { created, existing: raced } = await doCreateStreams(deps, realm, user, specs, { activeUsers });
  // A stream another request created meanwhile is an existing stream like any other.
  const racedAuthorized = raced.filter((s) => hasBasicStreamAccess(user, s, undefined));
  unauthorized.push(...raced.filter((s) => !hasBasicStreamAccess(user, s, undefined)));
  if (unauthorized.length > 0 && req.authorizationErrorsFatal) {
    throw new JsonableError(`Unable to access channel (${unauthorized[0]!.name}).`);
  }

  const usable = new Set([...existing.filter(authorized), ...created, ...racedAuthorized].map((s) => s.stream_id));
  const byName = new Map(
    [...existing, ...created, ...raced].map((s) => [s.name.toLowerCase(), s] as const),
  );
  const streams = wanted.flatMap((w) => {
    const stream = byName.get(w.name.toLowerCase());
    return stream && usable.has(stream.stream_id) ? [stream] : [];
  });
  const colorMap = new Map(wanted.filter((w) => w.color).map((w) => [w.name.toLowerCase(), w.color!]));

  const { subscribed, alreadySubscribed } = await doAddSubscriptions(deps, realm, streams, subscribers, {
    colorMap,
    activeUsers,
  });
  const group = (changes: { user: UserRecord; stream: StreamRecord }[]) => {
    const out: Record<string, string[]> = {};
    for (const { user: u, stream } of changes) {
      const key = apiEmail(u, realm, deps.config);
      (out[key] ??= []).push(stream.name);
    }
    return out;
  };
  const result: SubscribeResult = { subscribed: group(subscribed), already_subscribed: group(alreadySubscribed) };
  if (!req.authorizationErrorsFatal) result.unauthorized = unauthorized.map((s) => s.name);
  return result;
}
