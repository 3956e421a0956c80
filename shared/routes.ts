/**
 * The route table: the single source of truth for which endpoint serves
 * which method and path. The CDK stack makes one API Gateway route per entry
 * (integrated with the Lambda of the entry's group), the local server
 * dispatches with {@link matchRequestPath}, and `npm run gen:lambdas` writes
 * each group's routes into its Lambda entry; a test fails when an entry has
 * no endpoint in its group or a Lambda entry's routes differ from its
 * group's here. Only the `$default` fallback's bundle holds this module: a
 * group's Lambda finds its routes by API Gateway's route key
 * (shared/routing.ts).
 *
 * Paths are relative to {@link API_PREFIX} and use API Gateway's `{param}`
 * syntax. Where Zulip serves two kinds of value at one position (a user ID or
 * an email) there is one route with one parameter name, because API Gateway
 * cannot tell `/users/{user_id}` from `/users/{email}`.
 */

import { pathMatcher } from "./route-match.js";
import { API_PREFIX, JSON_PREFIX, withJsonCopies, type AuthMode, type Group, type HttpMethod, type Route, type RouteMatch } from "./routing.js";

// The shape of a route and what needs no table live in ./routing.ts, which every Lambda bundle holds.
export {
  acceptsSessionCookie,
  API_PREFIX,
  GROUPS,
  INCOMING_WEBHOOK_BOT_ENDPOINTS,
  JSON_PREFIX,
  routeKey,
  type AuthMode,
  type Group,
  type HttpMethod,
  type Route,
  type RouteMatch,
} from "./routing.js";

const r = (method: HttpMethod, path: string, group: Group, endpoint: string, auth: AuthMode = "api"): Route => ({
  method,
  path,
  prefix: API_PREFIX,
  group,
  endpoint,
  auth,
});

/** A route at the site root rather than below {@link API_PREFIX}. */
const atRoot = (route: Route): Route => ({ ...route, prefix: "" });

/** An API route without a `/json` copy ({@link Route.apiOnly}): the mobile apps' own endpoints. */
const apiOnly = (route: Route): Route => ({ ...route, apiOnly: true });

const API_ROUTE_TABLE: readonly Route[] = [
  // Server and authentication
  r("GET", "/server_settings", "unauthenticated", "getServerSettings", "none"),
  r("POST", "/fetch_api_key", "unauthenticated", "fetchApiKey", "none"),
  // The web app's password login and logout (Zulip's `login_page` and `logout_view`, at the site root).
  atRoot(r("POST", "/accounts/login", "unauthenticated", "webLogin", "none")),
  atRoot(r("POST", "/accounts/logout", "unauthenticated", "webLogout", "none")),
  // The file `server_emoji_data_url` names (Zulip serves it as a static file; the URL is opaque to clients).
  r("GET", "/static/generated/emoji/emoji_api.json", "unauthenticated", "getEmojiData", "none"),

  // Users
  r("GET", "/users", "users", "getUsers"),
  r("POST", "/users", "users", "createUser"),
  r("GET", "/users/me", "users", "getOwnUser"),
  r("DELETE", "/users/me", "users", "deactivateOwnUser"),
  r("POST", "/users/me/status", "users", "updateStatus"),
  r("POST", "/users/me/onboarding_steps", "users", "markOnboardingStepAsRead"),
  r("GET", "/users/{user_id}", "users", "getUser"),
  r("PATCH", "/users/{user_id}", "users", "updateUser"),
  r("DELETE", "/users/{user_id}", "users", "deactivateUser"),
  r("POST", "/users/{user_id}/reactivate", "users", "reactivateUser"),
  r("GET", "/users/{user_id}/status", "users", "getUserStatus"),
  r("PATCH", "/settings", "users", "updateSettings"),
  r("POST", "/users/me/api_key/regenerate", "users", "regenerateApiKey"),
  r("GET", "/users/me/alert_words", "users", "getAlertWords"),
  r("POST", "/users/me/alert_words", "users", "addAlertWords"),
  r("DELETE", "/users/me/alert_words", "users", "removeAlertWords"),

  // Drafts
  r("GET", "/drafts", "users", "getDrafts"),
  r("POST", "/drafts", "users", "createDrafts"),
  r("PATCH", "/drafts/{draft_id}", "users", "editDraft"),
  r("DELETE", "/drafts/{draft_id}", "users", "deleteDraft"),
  r("POST", "/users/me/muted_users/{muted_user_id}", "users", "muteUser"),
  // Invitations (functions/invites/): email invitations and reusable links.
  r("GET", "/invites", "users", "getInvites"),
  r("POST", "/invites", "users", "sendInvites"),
  r("DELETE", "/invites/{invite_id}", "users", "revokeEmailInvite"),
  r("POST", "/invites/{invite_id}/resend", "users", "resendEmailInvite"),
  r("POST", "/invites/multiuse", "users", "createInviteLink"),
  r("DELETE", "/invites/multiuse/{invite_id}", "users", "revokeInviteLink"),
  r("DELETE", "/users/me/muted_users/{muted_user_id}", "users", "unmuteUser"),

  // Streams and subscriptions
  r("GET", "/users/me/subscriptions", "streams", "getSubscriptions"),
  r("POST", "/users/me/subscriptions", "streams", "subscribe"),
  r("DELETE", "/users/me/subscriptions", "streams", "unsubscribe"),
  r("PATCH", "/users/me/subscriptions", "streams", "updateSubscriptions"),
  r("POST", "/users/me/subscriptions/properties", "streams", "updateSubscriptionProperties"),
  r("PATCH", "/users/me/subscriptions/properties", "streams", "updateSubscriptionProperties"),
  r("GET", "/users/me/{stream_id}/topics", "streams", "getStreamTopics"),
  r("PATCH", "/users/me/subscriptions/muted_topics", "streams", "muteTopic"),
  r("POST", "/user_topics", "streams", "updateUserTopic"),
  r("GET", "/users/{user_id}/subscriptions/{stream_id}", "streams", "getSubscriptionStatus"),
  r("GET", "/streams", "streams", "getStreams"),
  r("GET", "/streams/{stream_id}", "streams", "getStreamById"),
  r("PATCH", "/streams/{stream_id}", "streams", "updateStream"),
  r("DELETE", "/streams/{stream_id}", "streams", "archiveStream"),
  r("GET", "/streams/{stream_id}/members", "streams", "getSubscribers"),
  r("GET", "/streams/{stream_id}/email_address", "streams", "getStreamEmailAddress"),
  r("POST", "/streams/{stream_id}/delete_topic", "streams", "deleteTopic"),
  r("GET", "/get_stream_id", "streams", "getStreamId"),

  // Messages
  r("POST", "/messages", "messages", "sendMessage"),
  r("GET", "/messages", "messages", "getMessages"),
  r("GET", "/messages/{message_id}", "messages", "getMessage"),
  r("PATCH", "/messages/{message_id}", "messages", "updateMessage"),
  r("DELETE", "/messages/{message_id}", "messages", "deleteMessage"),
  r("GET", "/messages/{message_id}/history", "messages", "getMessageHistory"),
  r("GET", "/messages/{message_id}/read_receipts", "messages", "getReadReceipts"),
  r("GET", "/messages/matches_narrow", "messages", "checkMessagesMatchNarrow"),
  r("POST", "/messages/render", "messages", "renderMessage"),
  r("POST", "/messages/{message_id}/reactions", "messages", "addReaction"),
  r("DELETE", "/messages/{message_id}/reactions", "messages", "removeReaction"),
  r("POST", "/submessage", "messages", "processSubmessage"),
  r("POST", "/messages/flags", "messages", "updateMessageFlags"),

  // Scheduled messages (sent later by the worker through the same send action)
  r("GET", "/scheduled_messages", "webhooks", "getScheduledMessages"),
  r("POST", "/scheduled_messages", "webhooks", "createScheduledMessage"),
  r("PATCH", "/scheduled_messages/{scheduled_message_id}", "webhooks", "updateScheduledMessage"),
  r("DELETE", "/scheduled_messages/{scheduled_message_id}", "webhooks", "deleteScheduledMessage"),
  r("POST", "/messages/flags/narrow", "messages", "updateMessageFlagsForNarrow"),
  r("POST", "/mark_all_as_read", "messages", "markAllAsRead"),
  r("POST", "/mark_stream_as_read", "messages", "markStreamAsRead"),
  r("POST", "/mark_topic_as_read", "messages", "markTopicAsRead"),

  // Real-time events
  r("POST", "/register", "events", "registerQueue"),
  r("GET", "/events", "events", "getEvents"),
  r("DELETE", "/events", "events", "deleteQueue"),

  // Presence and typing: the busiest endpoints get their own small Lambda.
  r("POST", "/users/me/presence", "presence", "updatePresence"),
  r("GET", "/realm/presence", "presence", "getRealmPresence"),
  r("GET", "/users/{user_id}/presence", "presence", "getUserPresence"),
  r("POST", "/typing", "presence", "setTypingStatus"),
  // Mobile push devices (functions/mobile-push/): only the mobile apps call them, so no /json copies.
  apiOnly(r("POST", "/users/me/apns_device_token", "presence", "addApnsDeviceToken")),
  apiOnly(r("DELETE", "/users/me/apns_device_token", "presence", "removeApnsDeviceToken")),
  apiOnly(r("POST", "/users/me/android_gcm_reg_id", "presence", "addAndroidRegId")),
  apiOnly(r("DELETE", "/users/me/android_gcm_reg_id", "presence", "removeAndroidRegId")),
  apiOnly(r("POST", "/mobile_push/test_notification", "presence", "sendTestPushNotification")),

  // User groups
  r("GET", "/user_groups", "realm", "getUserGroups"),
  r("POST", "/user_groups/create", "realm", "createUserGroup"),
  r("PATCH", "/user_groups/{user_group_id}", "realm", "updateUserGroup"),
  r("DELETE", "/user_groups/{user_group_id}", "realm", "removeUserGroup"),
  r("GET", "/user_groups/{user_group_id}/members", "realm", "getUserGroupMembers"),
  r("POST", "/user_groups/{user_group_id}/members", "realm", "updateUserGroupMembers"),
  r("GET", "/user_groups/{user_group_id}/members/{user_id}", "realm", "getIsUserGroupMember"),
  r("GET", "/user_groups/{user_group_id}/subgroups", "realm", "getUserGroupSubgroups"),
  r("POST", "/user_groups/{user_group_id}/subgroups", "realm", "updateUserGroupSubgroups"),
  // Custom profile fields
  r("GET", "/realm/profile_fields", "realm", "getCustomProfileFields"),
  r("POST", "/realm/profile_fields", "realm", "createCustomProfileField"),
  r("PATCH", "/realm/profile_fields", "realm", "reorderCustomProfileFields"),
  r("PATCH", "/realm/profile_fields/{field_id}", "realm", "updateCustomProfileField"),
  r("DELETE", "/realm/profile_fields/{field_id}", "realm", "deleteCustomProfileField"),
  r("PATCH", "/users/me/profile_data", "users", "updateUserCustomProfileData"),
  r("DELETE", "/users/me/profile_data", "users", "removeUserCustomProfileData"),
  // Organization settings, deactivation, playgrounds, linkifiers, defaults for new users, default streams
  r("PATCH", "/realm", "realm", "updateRealm"),
  r("POST", "/realm/deactivate", "realm", "deactivateRealm"),
  r("POST", "/realm/playgrounds", "realm", "addCodePlayground"),
  r("DELETE", "/realm/playgrounds/{playground_id}", "realm", "removeCodePlayground"),
  r("GET", "/realm/linkifiers", "realm", "getLinkifiers"),
  r("PATCH", "/realm/linkifiers", "realm", "reorderLinkifiers"),
  r("POST", "/realm/filters", "realm", "addLinkifier"),
  r("PATCH", "/realm/filters/{filter_id}", "realm", "updateLinkifier"),
  r("DELETE", "/realm/filters/{filter_id}", "realm", "removeLinkifier"),
  r("PATCH", "/realm/user_settings_defaults", "realm", "updateRealmUserSettingsDefaults"),
  // Public data exports; the DELETE is not in the OpenAPI file (Zulip's zproject/urls.py names the view).
  r("GET", "/export/realm", "realm", "getRealmExports"),
  r("POST", "/export/realm", "realm", "exportRealm"),
  r("DELETE", "/export/realm/{export_id}", "realm", "deleteRealmExport"),
  r("POST", "/default_streams", "realm", "addDefaultStream"),
  r("DELETE", "/default_streams", "realm", "removeDefaultStream"),
  // Video calls (Zulip's zerver/views/video_calls.py): the join link `create` answers is served at the
  // site root, as Zulip serves it, with the session cookie a browser following the link sends.
  r("GET", "/calls/bigbluebutton/create", "realm", "createBigBlueButtonCall"),
  atRoot(r("GET", "/calls/bigbluebutton/join", "realm", "joinBigBlueButton")),
  // Bots (not in the OpenAPI file; Zulip's zproject/urls.py names the views)
  r("GET", "/bots", "users", "getBots"),
  // Creating and editing a bot may carry an avatar file: the files group (it writes the files bucket).
  r("POST", "/bots", "files", "createBot"),
  r("PATCH", "/bots/{bot_id}", "files", "updateBot"),
  r("DELETE", "/bots/{bot_id}", "users", "deactivateBot"),
  r("POST", "/bots/{bot_id}/api_key/regenerate", "users", "regenerateBotApiKey"),

  // Incoming webhooks: third-party senders post here with a bot's key.
  r("POST", "/external/{integration_name}", "webhooks", "incomingWebhook", "webhook"),
  r("GET", "/external/{integration_name}", "webhooks", "incomingWebhook", "webhook"),
  // Senders such as Trello check a callback URL with HEAD before they post to it.
  r("HEAD", "/external/{integration_name}", "webhooks", "verifyIncomingWebhook", "webhook"),

  // Custom emoji, avatars, organization icon and logos (the files group: they write the files bucket)
  r("GET", "/realm/emoji", "files", "getCustomEmoji"),
  r("POST", "/realm/emoji/{emoji_name}", "files", "uploadCustomEmoji"),
  r("DELETE", "/realm/emoji/{emoji_name}", "files", "deactivateCustomEmoji"),
  // Not in the OpenAPI file; Zulip's zproject/urls.py names the views.
  r("POST", "/users/me/avatar", "files", "setAvatar"),
  r("DELETE", "/users/me/avatar", "files", "deleteAvatar"),
  r("POST", "/realm/icon", "files", "uploadRealmIcon"),
  r("DELETE", "/realm/icon", "files", "deleteRealmIcon"),
  r("POST", "/realm/logo", "files", "uploadRealmLogo"),
  r("DELETE", "/realm/logo", "files", "deleteRealmLogo"),
  // Zulip's `user_avatars` namespace at the site root (as Zulip serves it), without credentials: one
  // pattern per key shape (shared/storage/object-keys.ts), each a redirect to a presigned URL.
  atRoot(r("GET", "/user_avatars/{realm_id}/emoji/images/{file_name}", "files", "getUserAvatarsFile", "none")),
  atRoot(r("GET", "/user_avatars/{realm_id}/emoji/images/still/{file_name}", "files", "getUserAvatarsFile", "none")),
  atRoot(r("GET", "/user_avatars/{realm_id}/avatars/{file_name}", "files", "getUserAvatarsFile", "none")),
  atRoot(r("GET", "/user_avatars/{realm_id}/realm/{file_name}", "files", "getUserAvatarsFile", "none")),
  // A finished data export's tarball (export_url of GET /export/realm): its random path is the credential, as in Zulip.
  atRoot(r("GET", "/user_avatars/exports/{realm_id}/{token}/{file_name}", "files", "getUserAvatarsFile", "none")),
  // Uploaded files (Zulip's zerver/views/upload.py and attachments.py). The API form of a file's
  // path answers a temporary URL; the site-root form, which messages link, serves the file.
  r("POST", "/user_uploads", "files", "uploadFile"),
  r("GET", "/user_uploads/{realm_id_str}/{filename+}", "files", "getFileTemporaryUrl"),
  atRoot(r("GET", "/user_uploads/{realm_id_str}/{filename+}", "files", "serveUploadedFile", "optional")),
  atRoot(r("GET", "/user_uploads/download/{realm_id_str}/{filename+}", "files", "serveFileDownload", "optional")),
  atRoot(r("GET", "/user_uploads/thumbnail/{realm_id_str}/{filename+}", "files", "serveThumbnail", "optional")),
  atRoot(r("GET", "/user_uploads/temporary/{token}/{filename}", "files", "serveFileFromToken", "none")),
  // External images in messages, through this server as their camo proxy (Zulip's `handle_camo_url`).
  atRoot(r("GET", "/external_content/{digest}/{received_url}", "files", "serveExternalContent", "none")),
  r("GET", "/attachments", "files", "getAttachments"),
  r("DELETE", "/attachments/{attachment_id}", "files", "removeAttachment"),
  // Image redirects (Zulip's `avatar`, `avatar_medium`, `get_icon_backend`, `get_logo_backend`):
  // the avatar ones at the site root, as Zulip routes them.
  atRoot(r("GET", "/avatar/{email_or_id}", "files", "getAvatarRedirect")),
  atRoot(r("GET", "/avatar/{email_or_id}/medium", "files", "getMediumAvatarRedirect")),
  r("GET", "/realm/icon", "files", "getRealmIconRedirect"),
  r("GET", "/realm/logo", "files", "getRealmLogoRedirect"),

  // The web app (web/dist, built by `npm run build:web`): its page at the site root and its built
  // files. Served without credentials, rate limits or table reads (shared/http/site-handler.ts).
  atRoot(r("GET", "/", "web", "getWebAppPage", "none")),
  atRoot(r("HEAD", "/", "web", "getWebAppPage", "none")),
  atRoot(r("GET", "/static/app/{path+}", "web", "getWebAppFile", "none")),
  atRoot(r("HEAD", "/static/app/{path+}", "web", "getWebAppFile", "none")),
  // The same page at the paths of the links the server mails and of the sign-up page; the app's router
  // reads the path (web/src/model/account-pages.ts). One greedy route serves the `/accounts/…` pages
  // (its endpoint answers only theirs) to keep the API under its quota of routes.
  atRoot(r("GET", "/join/{key}", "web", "getWebAppPage", "none")),
  atRoot(r("GET", "/register", "web", "getWebAppPage", "none")),
  atRoot(r("GET", "/accounts/{page+}", "web", "getAccountPage", "none")),
];

/**
 * Routes Zulip serves to its web app alone, below {@link JSON_PREFIX} with
 * the session: `POST /json/fetch_api_key` (Zulip's `json_fetch_api_key`) shows
 * a signed-in person their API key once they confirm their password. The API's
 * `POST /api/v1/fetch_api_key` is another view (email and password, no session).
 * The account pages' endpoints (password reset, email change) need no session.
 */
const WEB_ONLY_ROUTES: readonly Route[] = [
  { method: "POST", path: "/fetch_api_key", prefix: JSON_PREFIX, group: "users", endpoint: "jsonFetchApiKey", auth: "session" },
  // What the signed-out pages show before anyone signs in (a "Sign up" link, the password rules).
  { method: "GET", path: "/accounts/signup_settings", prefix: JSON_PREFIX, group: "unauthenticated", endpoint: "getSignupSettings", auth: "none" },
  // Password reset and email change (functions/accounts/): the pages at the mailed links call these, signed out.
  { method: "POST", path: "/accounts/password/reset", prefix: JSON_PREFIX, group: "unauthenticated", endpoint: "requestPasswordReset", auth: "none" },
  { method: "GET", path: "/accounts/password/reset/{key}", prefix: JSON_PREFIX, group: "unauthenticated", endpoint: "getPasswordReset", auth: "none" },
  { method: "POST", path: "/accounts/password/reset/{key}", prefix: JSON_PREFIX, group: "unauthenticated", endpoint: "resetPassword", auth: "none" },
  { method: "POST", path: "/accounts/confirm_new_email/{key}", prefix: JSON_PREFIX, group: "unauthenticated", endpoint: "confirmEmailChange", auth: "none" },
  // The sign-up pages' calls (functions/invites/signup.ts): no session yet; a sign-up starts one.
  { method: "GET", path: "/signup/{key}", prefix: JSON_PREFIX, group: "users", endpoint: "getSignupLink", auth: "none" },
  { method: "POST", path: "/signup", prefix: JSON_PREFIX, group: "users", endpoint: "signup", auth: "none" },
  { method: "POST", path: "/signup/request", prefix: JSON_PREFIX, group: "users", endpoint: "requestSignup", auth: "none" },
];

/**
 * Every route: the table above, the `/json` copy of each of its API routes
 * that needs a user ({@link withJsonCopies}), and the web app's own ({@link WEB_ONLY_ROUTES}).
 */
export const ROUTES: readonly Route[] = withJsonCopies([...API_ROUTE_TABLE, ...WEB_ONLY_ROUTES]);

/** The routes of one group: what its Lambda serves (generated into `functions/lambdas/<group>.ts`). */
export function groupRoutes(group: Group): Route[] {
  return ROUTES.filter((route) => route.group === group);
}

const matchAll = pathMatcher(ROUTES);

/**
 * Matches a method and a path below {@link API_PREFIX} the way API Gateway
 * does: the most specific pattern wins (`/users/me` before `/users/{user_id}`).
 * @param path request path without the `/api/v1` prefix, e.g. `/users/12`
 */
export function matchRoute(method: string, path: string): RouteMatch {
  return matchAll(method, `${API_PREFIX}${path}`);
}

/**
 * Matches a request's full path against the whole table (`pathMatcher` of
 * shared/route-match.ts): below {@link API_PREFIX} the API routes, below
 * {@link JSON_PREFIX} their web-app copies, elsewhere the site-root routes.
 * The local server dispatches with it, as API Gateway does.
 * @param rawPath the request path as sent, e.g. `/api/v1/users/12`, `/json/users/12` or `/user_uploads/2/ab/cd/x.txt`
 */
export function matchRequestPath(method: string, rawPath: string): RouteMatch {
  return matchAll(method, rawPath);
}
