import type { Config } from "../config.js";
import { JsonableError } from "../errors.js";

/**
 * The server's side of Zulip's push notification service (the "push
 * bouncer", `https://push.zulipchat.com`): the official mobile apps accept
 * notifications only from it, so a self-hosted server registers itself, its
 * users' devices, and hands it each notification's APNs and FCM payloads.
 * The protocol is Zulip's `zerver/lib/remote_server.py` and
 * `zerver/lib/push_notifications.py` (client side) against
 * `zilencer/views.py` (service side): HTTP Basic with `zulip_org_id` and
 * `zulip_org_key`, form bodies for registrations, JSON bodies for
 * notifications, everything below `/api/v1/remotes/`.
 *
 * Devices are registered by user UUID and realm UUID
 * (`shared/domain/push-identity.ts`) and, for the service's older
 * registrations, the user ID as well, as Zulip sends both.
 */

/**
 * Whether push notifications are configured (Zulip's
 * `push_notifications_configured`): the service's URL and both of the
 * server's credentials are set. `/server_settings` reports it without
 * building the client.
 */
export function pushNotificationsConfigured(config: Pick<Config, "PUSH_NOTIFICATION_BOUNCER_URL" | "ZULIP_ORG_ID" | "ZULIP_ORG_KEY">): boolean {
  return Boolean(config.PUSH_NOTIFICATION_BOUNCER_URL && config.ZULIP_ORG_ID && config.ZULIP_ORG_KEY);
}

/**
 * Whether this deployment uses a push notification service at all (its URL
 * is set), so that rows may carry `active_mobile_push_notification`: the
 * request paths that clear notifications (message edits and deletions)
 * read rows for it only then. The `messages` function gets the URL without
 * the credentials, since it never calls the service.
 */
export function pushNotificationsInUse(config: Pick<Config, "PUSH_NOTIFICATION_BOUNCER_URL">): boolean {
  return Boolean(config.PUSH_NOTIFICATION_BOUNCER_URL);
}

/** Zulip's `PushDeviceToken.kind`: 1 APNs (iOS), 2 FCM (Android; Zulip still says GCM). */
export const PushTokenKind = { APNS: 1, FCM: 2 } as const;
export type PushTokenKind = (typeof PushTokenKind)[keyof typeof PushTokenKind];

/** Who a device belongs to, as the service knows users. */
export interface BouncerUserIdentity {
  user_id: number;
  user_uuid: string;
  realm_uuid: string;
}

/** `POST remotes/push/register` / `unregister` (form fields; `ios_app_id` for APNs only). */
export interface BouncerDevice extends BouncerUserIdentity {
  token: string;
  token_kind: PushTokenKind;
  ios_app_id?: string;
}

/** The JSON body of `POST remotes/push/notify` (Zulip's `send_notifications_to_bouncer`). */
export interface BouncerNotifyRequest extends BouncerUserIdentity {
  apns_payload: Record<string, unknown>;
  gcm_payload: Record<string, unknown>;
  /** `{"priority": "high"}` for messages, `"normal"` for removals. */
  gcm_options: Record<string, unknown>;
  /** The tokens this server believes are registered; the service answers which it has deleted. */
  android_devices: string[];
  apple_devices: string[];
}

/** The service's answer to `remotes/push/notify`. */
export interface BouncerNotifyResult {
  total_android_devices: number;
  total_apple_devices: number;
  /** Tokens the service dropped (unregistered at APNs/FCM): this server deletes them too. */
  deleted_devices: { android_devices: string[]; apple_devices: string[] };
  /** The organization's plan status at the service; null when it does not know the realm yet. */
  realm: { can_push: boolean; expected_end_timestamp: number | null } | null;
}

/** The JSON body of `POST remotes/push/test_notification`: the service builds the test notification from `base_payload`. */
export interface BouncerTestNotificationRequest extends BouncerUserIdentity {
  token: string;
  token_kind: PushTokenKind;
  base_payload: Record<string, unknown>;
}

/** `POST remotes/server/register` (Zulip's `manage.py register_server`). */
export interface BouncerServerRegistration {
  hostname: string;
  contact_email: string;
  /** Rotates the server's key to this one. */
  new_org_key?: string;
}

/** `GET remotes/server/analytics/status`: the IDs the service already holds. */
export interface BouncerAnalyticsStatus {
  last_realm_count_id: number | null;
  last_installation_count_id: number | null;
  last_realmauditlog_id: number | null;
}

/** One organization as `POST remotes/server/analytics` describes it (Zulip's `RealmDataForAnalytics`). */
export interface BouncerRealmInfo {
  id: number;
  uuid: string;
  uuid_owner_secret: string;
  host: string;
  url: string;
  name: string;
  org_type: number;
  /** UNIX seconds. */
  date_created: number;
  deactivated: boolean;
  is_system_bot_realm: boolean;
  authentication_methods: Record<string, boolean>;
}

/**
 * One billing audit row (Zulip's `RealmAuditLogDataForAnalytics`): the
 * service counts an organization's users from the newest row's
 * `extra_data["10"]` (`{"11": humans by role, "12": bots}`).
 */
export interface BouncerAuditRow {
  id: number;
  realm: number;
  /** UNIX seconds. */
  event_time: number;
  backfilled: boolean;
  extra_data: Record<string, unknown>;
  event_type: number;
}

/** The body of `POST remotes/server/analytics` (each list is sent as a JSON string, as Zulip does). */
export interface BouncerAnalyticsRequest {
  realm_counts: unknown[];
  installation_counts: unknown[];
  realmauditlog_rows: BouncerAuditRow[];
  realms: BouncerRealmInfo[];
  version: string;
  api_feature_level: number;
}

/** The service's answer to the analytics upload: each organization's push status, by realm UUID. */
export interface BouncerAnalyticsResult {
  realms: Record<string, { can_push: boolean; expected_end_timestamp: number | null }>;
}

/**
 * The push notification service, as the server calls it. Every method
 * throws {@link PushBouncerRetryLaterError} for network failures and 5xx
 * answers, {@link PushBouncerServerCredentialsError} when the service
 * refuses this server's credentials, {@link PushNotificationsDisallowedError}
 * when the organization's plan does not allow pushes, and a plain
 * JsonableError carrying the service's message for its other refusals
 * (an unknown token, say), as Zulip's `send_to_push_bouncer` does.
 */
export interface PushBouncer {
  /** The service's base URL (`PUSH_NOTIFICATION_BOUNCER_URL`), for logs and docs. */
  readonly url: string;
  registerServer(registration: BouncerServerRegistration): Promise<{ created: boolean }>;
  registerDevice(device: BouncerDevice): Promise<void>;
  /** @throws JsonableError `Token does not exist` when the service has no such registration */
  unregisterDevice(device: BouncerDevice): Promise<void>;
  unregisterAllDevices(user: BouncerUserIdentity): Promise<void>;
  notify(request: BouncerNotifyRequest): Promise<BouncerNotifyResult>;
  /** @throws InvalidRemotePushDeviceTokenError when the service does not know the device */
  sendTestNotification(request: BouncerTestNotificationRequest): Promise<void>;
  analyticsStatus(): Promise<BouncerAnalyticsStatus>;
  postAnalytics(request: BouncerAnalyticsRequest): Promise<BouncerAnalyticsResult>;
}

/**
 * 502: the service could not be reached or failed (Zulip's
 * `PushNotificationBouncerRetryLaterError`); a job that meets it is retried.
 */
export class PushBouncerRetryLaterError extends JsonableError {
  constructor(msg: string) {
    super(msg, { httpStatus: 502 });
  }
}

/**
 * 502: the service refused this server's `zulip_org_id`/`zulip_org_key`
 * (`INVALID_ZULIP_SERVER`: not registered, or a wrong key). Zulip emails
 * the server's administrators; here the worker logs it as an error and a
 * request shows it, since the operator must register the server
 * (docs/deploying.md).
 */
export class PushBouncerServerCredentialsError extends JsonableError {
  constructor(msg: string) {
    super(`Push notifications bouncer error: ${msg}`, { httpStatus: 502 });
  }
}

/**
 * The organization's plan at the service does not allow push notifications
 * (`PUSH_NOTIFICATIONS_DISALLOWED`, e.g. more users than the free tier):
 * the realm's `push_notifications_enabled` turns false until the service
 * says otherwise. Not a client error: it never reaches a response.
 */
export class PushNotificationsDisallowedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "PushNotificationsDisallowedError";
  }
}
