/**
 * The one error hierarchy of the service (https://zulip.com/api/rest-error-handling).
 *
 * Every error a client may see is a {@link JsonableError}: a stable `code`,
 * an HTTP status, a human-readable `msg` and optional named data fields that
 * are copied into the envelope next to `result`, `msg` and `code`. The
 * error-envelope middleware is the only place that turns these into HTTP
 * responses; anything that is not a JsonableError becomes a generic 500 whose
 * cause is logged and never sent.
 *
 * Codes and messages follow Zulip's (zerver/lib/exceptions.py as documented
 * in the Zulip REST API error-handling page and OpenAPI components).
 */
export class JsonableError extends Error {
  /** Machine-readable error code, `BAD_REQUEST` unless a subclass says otherwise. */
  readonly code: string;
  /** HTTP status of the response. @default 400 */
  readonly httpStatus: number;
  /** Extra fields added to the envelope (for example `stream`, `var_name`). */
  readonly data: Record<string, unknown>;
  /** Extra HTTP response headers (for example `WWW-Authenticate`). */
  readonly headers: Record<string, string>;

  constructor(
    msg: string,
    opts: { code?: string; httpStatus?: number; data?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(msg);
    this.name = new.target.name;
    this.code = opts.code ?? "BAD_REQUEST";
    this.httpStatus = opts.httpStatus ?? 400;
    this.data = opts.data ?? {};
    this.headers = opts.headers ?? {};
  }

  /** The JSON body Zulip sends for this error: `{result, msg, code, ...data}`. */
  toEnvelope(): Record<string, unknown> {
    return { result: "error", msg: this.message, code: this.code, ...this.data };
  }
}

/** 400 `REQUEST_VARIABLE_MISSING`: `Missing '<name>' argument`, with `var_name`. */
export class MissingArgumentError extends JsonableError {
  constructor(varName: string) {
    super(`Missing '${varName}' argument`, { code: "REQUEST_VARIABLE_MISSING", data: { var_name: varName } });
  }
}

/** 400 `BAD_REQUEST` for two parameters that may not be passed together. */
export class IncompatibleParametersError extends JsonableError {
  constructor(parameters: string[]) {
    const joined = parameters.join(", ");
    super(`Unsupported parameter combination: ${joined}`, { data: { parameters: joined } });
  }
}

const WWW_AUTHENTICATE = { "WWW-Authenticate": 'Basic realm="zulip"' };

/**
 * What a 401 asks the client for: HTTP Basic on the API; `Session` on the
 * web app's `/json` routes (Zulip's `www_authenticate="session"`), which a
 * browser does not answer with a password dialog.
 */
const SESSION_WWW_AUTHENTICATE = { "WWW-Authenticate": 'Session realm="zulip"' };

/** 401 `UNAUTHORIZED`: no credentials were sent, or (with a message) they were refused. */
export class UnauthorizedError extends JsonableError {
  /** @param scheme `session` on routes authenticated by the session cookie @default "basic" */
  constructor(msg = "Not logged in: API authentication or user session required", scheme: "basic" | "session" = "basic") {
    super(msg, { code: "UNAUTHORIZED", httpStatus: 401, headers: scheme === "session" ? SESSION_WWW_AUTHENTICATE : WWW_AUTHENTICATE });
  }
}

/**
 * 403 `CSRF_FAILED` (Zulip's `csrf_failure`, with Django's reasons): a
 * session request without the session's `X-CSRFToken`, or a login posted
 * from another origin.
 * @param reason e.g. `CSRF token missing.`
 */
export class CsrfFailedError extends JsonableError {
  constructor(reason: string) {
    super(`CSRF error: ${reason}`, { code: "CSRF_FAILED", httpStatus: 403 });
  }
}

/** 401 `INVALID_API_KEY`: the key matches no user, or not the email sent with it. */
export class InvalidApiKeyError extends JsonableError {
  constructor() {
    super("Invalid API key", { code: "INVALID_API_KEY", httpStatus: 401, headers: WWW_AUTHENTICATE });
  }
}

/** 401 `USER_DEACTIVATED` (Zulip uses 401 since feature level 76). */
export class UserDeactivatedError extends JsonableError {
  constructor() {
    super("Account is deactivated", { code: "USER_DEACTIVATED", httpStatus: 401, headers: WWW_AUTHENTICATE });
  }
}

/** 401 `REALM_DEACTIVATED` (Zulip uses 401 since feature level 76). */
export class RealmDeactivatedError extends JsonableError {
  constructor() {
    super("This organization has been deactivated", {
      code: "REALM_DEACTIVATED",
      httpStatus: 401,
      headers: WWW_AUTHENTICATE,
    });
  }
}

/** 401: valid credentials, but for an organization other than the request's host. */
export class InvalidSubdomainError extends JsonableError {
  constructor() {
    super("Account is not associated with this subdomain", { httpStatus: 401, headers: WWW_AUTHENTICATE });
  }
}

/**
 * 400 for a request whose Host is neither the root domain nor below it:
 * Zulip refuses hosts outside its configured domains (Django's allowed
 * hosts, a 400), and names the error as its `InvalidSubdomainError` does
 * (`NONEXISTENT_SUBDOMAIN`, "Invalid subdomain").
 */
export class UnknownHostError extends JsonableError {
  constructor() {
    super("Invalid subdomain", { code: "NONEXISTENT_SUBDOMAIN" });
  }
}

/** 404 for a path under /api/v1 that no route serves. */
export class RouteNotFoundError extends JsonableError {
  constructor() {
    super("Not Found", { httpStatus: 404 });
  }
}

/** 405 for a known path called with a method it does not serve; lists `allowed_methods`. */
export class MethodNotAllowedError extends JsonableError {
  constructor(allowed: string[]) {
    super("Method Not Allowed", {
      httpStatus: 405,
      data: { allowed_methods: allowed },
      headers: { Allow: allowed.join(", ") },
    });
  }
}

/**
 * 429 `RATE_LIMIT_HIT` (Zulip's `RateLimitedError`): `retry-after` in the
 * body is the float seconds until the limit frees; the `Retry-After` header
 * rounds it up to whole seconds, the unit RFC 9110 allows there.
 */
export class RateLimitedError extends JsonableError {
  constructor(retryAfterSeconds: number) {
    super("API usage exceeded rate limit", {
      code: "RATE_LIMIT_HIT",
      httpStatus: 429,
      data: { "retry-after": retryAfterSeconds },
      headers: { "Retry-After": String(Math.ceil(retryAfterSeconds)) },
    });
  }
}

/** 400 `STREAM_DOES_NOT_EXIST` naming the stream, as Zulip words it at feature level 283. */
export class StreamDoesNotExistError extends JsonableError {
  constructor(stream: string) {
    super(`Channel '${stream}' does not exist`, { code: "STREAM_DOES_NOT_EXIST", data: { stream } });
  }
}

/** 400 `STREAM_DOES_NOT_EXIST` for an unknown or invisible stream ID. */
export class StreamIdDoesNotExistError extends JsonableError {
  constructor(streamId: number) {
    super(`Channel with ID '${streamId}' does not exist`, {
      code: "STREAM_DOES_NOT_EXIST",
      data: { stream_id: streamId },
    });
  }
}

/** 400 `BAD_REQUEST` `Invalid message(s)`: the message is missing or invisible to the caller. */
export class InvalidMessageError extends JsonableError {
  constructor() {
    super("Invalid message(s)");
  }
}

/** 400 `BAD_EVENT_QUEUE_ID`: the queue is unknown, expired or belongs to someone else. */
export class BadEventQueueIdError extends JsonableError {
  constructor(queueId: string) {
    super(`Bad event queue ID: ${queueId}`, { code: "BAD_EVENT_QUEUE_ID", data: { queue_id: queueId } });
  }
}

/** 400 `BAD_REQUEST` for actions that need organization administrator rights. */
export class OrganizationAdministratorRequiredError extends JsonableError {
  constructor() {
    super("Must be an organization administrator");
  }
}

/** 400 `BAD_REQUEST` for actions that need organization owner rights. */
export class OrganizationOwnerRequiredError extends JsonableError {
  constructor() {
    super("Must be an organization owner");
  }
}

/** 400 `BAD_REQUEST` for an operation the caller's role does not allow. */
export class InsufficientPermissionError extends JsonableError {
  constructor(msg = "Insufficient permission") {
    super(msg);
  }
}

/** 400 `BAD_REQUEST` `No such user` for an unknown user ID or email. */
export class NoSuchUserError extends JsonableError {
  constructor() {
    super("No such user");
  }
}

/** 400 `BAD_REQUEST` from endpoints only humans may call (Zulip's `@human_users_only`). */
export class HumanUsersOnlyError extends JsonableError {
  constructor() {
    super("This endpoint does not accept bot requests.");
  }
}

/**
 * 400 `BAD_REQUEST` `Invalid channel ID`: Zulip's `access_stream_by_id`
 * error for a stream that is missing, archived or invisible to the caller
 * (the same words for all three, so private streams do not leak).
 */
export class InvalidChannelIdError extends JsonableError {
  constructor() {
    super("Invalid channel ID");
  }
}

/** 400 `BAD_REQUEST` `Invalid channel name '<name>'`: Zulip's `access_stream_by_name` error. */
export class InvalidChannelNameError extends JsonableError {
  constructor(name: string) {
    super(`Invalid channel name '${name}'`);
  }
}

/**
 * 400 `BAD_REQUEST`: a message changed (edited, moved or deleted) between
 * the moment an edit read it and the moment the edit's conditional write
 * ran. Edits retry on it; clients only see it when the retries lose too.
 */
export class ConcurrentMessageEditError extends JsonableError {
  constructor() {
    super("The message was changed by someone else at the same time. Please try again.");
  }
}

/**
 * 400 `MOVE_MESSAGES_TIME_LIMIT_EXCEEDED`: a `change_all` move by someone
 * below moderator over a topic whose older messages are past the
 * organization's move time limit (Zulip's `MessageMoveError`), with the
 * part the user may move: `first_message_id_allowed_to_move` (null when
 * none), `total_messages_in_topic`, `total_messages_allowed_to_move`.
 */
export class MoveMessagesTimeLimitError extends JsonableError {
  constructor(firstAllowedId: number | null, totalInTopic: number, totalAllowed: number) {
    super(`You only have permission to move the ${totalAllowed}/${totalInTopic} most recent messages in this topic.`, {
      code: "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
      data: {
        first_message_id_allowed_to_move: firstAllowedId,
        total_messages_in_topic: totalInTopic,
        total_messages_allowed_to_move: totalAllowed,
      },
    });
  }
}

/**
 * 400 `BAD_REQUEST` for an incoming-webhook bot calling an API endpoint
 * other than the webhook routes and sending messages (Zulip's
 * `validate_api_key` without `allow_webhook_access`).
 */
export class IncomingWebhookBotRefusedError extends JsonableError {
  constructor() {
    super("This API is not available to incoming webhook bots.");
  }
}

/**
 * `UNSUPPORTED_WEBHOOK_EVENT_TYPE` with HTTP 200 (Zulip's
 * `UnsupportedWebhookEventTypeError`): the sender gets a success status so
 * that it does not disable the hook, and the envelope says which event of
 * which integration was ignored (`webhook_name`, `event_type`).
 */
export class UnsupportedWebhookEventTypeError extends JsonableError {
  constructor(webhookName: string, eventType: string) {
    super(`The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`, {
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      httpStatus: 200,
      data: { webhook_name: webhookName, event_type: eventType },
    });
  }
}

/** 413 `BAD_REQUEST` for a request body over an endpoint's size limit (in bytes). */
export class RequestBodyTooLargeError extends JsonableError {
  constructor(limitBytes: number) {
    super(`Request body too large (limit: ${limitBytes} bytes)`, { httpStatus: 413 });
  }
}

/**
 * 400 `STREAM_WILDCARD_MENTION_NOT_ALLOWED`: a channel wildcard mention
 * (`@**all**`, `@**everyone**`, `@**channel**`) in a channel with more than
 * 15 subscribers by a sender the realm's `wildcard_mention_policy` does not
 * authorize (Zulip's `StreamWildcardMentionNotAllowedError`).
 */
export class StreamWildcardMentionNotAllowedError extends JsonableError {
  constructor() {
    super("You do not have permission to use channel wildcard mentions in this channel.", {
      code: "STREAM_WILDCARD_MENTION_NOT_ALLOWED",
    });
  }
}

/**
 * 400 `TOPIC_WILDCARD_MENTION_NOT_ALLOWED`: `@**topic**` in a topic with
 * more than 15 participants by a sender the realm's `wildcard_mention_policy`
 * does not authorize (Zulip's `TopicWildcardMentionNotAllowedError`).
 */
export class TopicWildcardMentionNotAllowedError extends JsonableError {
  constructor() {
    super("You do not have permission to use topic wildcard mentions in this topic.", {
      code: "TOPIC_WILDCARD_MENTION_NOT_ALLOWED",
    });
  }
}

/**
 * 400 `REALM_UPLOAD_QUOTA`: an upload that would take the organization's
 * uploads past its `upload_quota_mib` (Zulip's `RealmUploadQuotaError`).
 */
export class RealmUploadQuotaError extends JsonableError {
  constructor() {
    super("Upload would exceed your organization's upload quota.", { code: "REALM_UPLOAD_QUOTA" });
  }
}

/**
 * 404 for a `/user_uploads/...` path that names no file of the organization
 * (never uploaded, deleted, or another organization's): Zulip's
 * `serve_file` answer for a missing attachment.
 */
export class UploadedFileNotFoundError extends JsonableError {
  constructor() {
    super("This file does not exist or has been deleted.", { httpStatus: 404 });
  }
}

/** 403 for a file the caller may not see (Zulip's `serve_file` answer when `validate_attachment_request` refuses). */
export class UploadedFileForbiddenError extends JsonableError {
  constructor() {
    super("You are not authorized to view this file.", { httpStatus: 403 });
  }
}

/**
 * 400 `BAD_IMAGE`: an avatar, icon, logo or custom emoji file that is not
 * an image the server takes (Zulip's `BadImageError`: `Could not decode
 * image; did you upload an image file?`, `Invalid image format`, `Image
 * size exceeds limit.`).
 */
export class BadImageError extends JsonableError {
  constructor(msg: string) {
    super(msg, { code: "BAD_IMAGE" });
  }
}

/**
 * 400 `INVITATION_FAILED` (Zulip's `InvitationError`, OpenAPI
 * `InvitationFailedError`): invitations refused in whole or in part.
 * `errors` lists `[email, reason, is_deactivated]` per skipped address;
 * `sent_invitations` says whether the others were sent.
 */
export class InvitationError extends JsonableError {
  constructor(
    msg: string,
    errors: [string, string, boolean][],
    opts: { sentInvitations: boolean; dailyLimitReached?: boolean; licenseLimitReached?: boolean },
  ) {
    super(msg, {
      code: "INVITATION_FAILED",
      data: {
        errors,
        sent_invitations: opts.sentInvitations,
        license_limit_reached: opts.licenseLimitReached ?? false,
        daily_limit_reached: opts.dailyLimitReached ?? false,
      },
    });
  }
}

/** Why a confirmation link (invitation, sign-up, password reset) is refused; `not_found` covers revoked links. */
export type ConfirmationLinkProblem = "not_found" | "expired" | "used";

const CONFIRMATION_LINK_ERRORS: Record<ConfirmationLinkProblem, { code: string; msg: string }> = {
  not_found: { code: "CONFIRMATION_NOT_FOUND", msg: "This confirmation link does not exist or has been revoked." },
  expired: { code: "CONFIRMATION_EXPIRED", msg: "This confirmation link has expired or been deactivated." },
  used: { code: "CONFIRMATION_USED", msg: "This confirmation link has already been used." },
};

/**
 * 400 `CONFIRMATION_NOT_FOUND` / `CONFIRMATION_EXPIRED` / `CONFIRMATION_USED`:
 * a confirmation link (sign-up, password reset, email change) that cannot be
 * used: unknown or revoked, expired (too old or voided by a later change),
 * or used (Zulip renders these as pages: `ConfirmationKeyError`).
 */
export class ConfirmationLinkError extends JsonableError {
  constructor(problem: ConfirmationLinkProblem) {
    const { code, msg } = CONFIRMATION_LINK_ERRORS[problem];
    super(msg, { code });
  }
}

/** 400 `INVALID_PUSH_DEVICE_TOKEN` `Device not recognized`: a test notification for a token the user has not registered. */
export class InvalidPushDeviceTokenError extends JsonableError {
  constructor() {
    super("Device not recognized", { code: "INVALID_PUSH_DEVICE_TOKEN" });
  }
}

/** 400 `INVALID_REMOTE_PUSH_DEVICE_TOKEN`: the push notification service does not know the device (test notifications). */
export class InvalidRemotePushDeviceTokenError extends JsonableError {
  constructor() {
    super("Device not recognized by the push bouncer", { code: "INVALID_REMOTE_PUSH_DEVICE_TOKEN" });
  }
}
