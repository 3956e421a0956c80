import type { Config } from "../config.js";
import { InvalidRemotePushDeviceTokenError, JsonableError } from "../errors.js";
import { ZULIP_VERSION } from "../version.js";
import {
  PushBouncerRetryLaterError,
  PushBouncerServerCredentialsError,
  PushNotificationsDisallowedError,
  pushNotificationsConfigured,
  type BouncerAnalyticsResult,
  type BouncerAnalyticsStatus,
  type BouncerDevice,
  type PushBouncer,
} from "./bouncer.js";

/** Seconds before a call to the service is abandoned (Zulip's `PushBouncerSession`: 15 s, 90 s for the analytics upload). */
const TIMEOUT_MS = 15_000;
const ANALYTICS_TIMEOUT_MS = 90_000;

/**
 * The push notification service from the configuration, or undefined when
 * push notifications are not configured (Zulip's
 * `push_notifications_configured`: a service URL and both credentials).
 */
export function pushBouncerFromConfig(
  config: Pick<Config, "PUSH_NOTIFICATION_BOUNCER_URL" | "ZULIP_ORG_ID" | "ZULIP_ORG_KEY">,
  fetchImpl: typeof fetch = fetch,
): PushBouncer | undefined {
  if (!pushNotificationsConfigured(config)) return undefined;
  return createHttpPushBouncer(config.PUSH_NOTIFICATION_BOUNCER_URL!, config.ZULIP_ORG_ID!, config.ZULIP_ORG_KEY!, fetchImpl);
}

type Body = { form: Record<string, string | number | undefined> } | { json: unknown } | undefined;

/**
 * {@link PushBouncer} over HTTP, as Zulip's `send_to_push_bouncer`: HTTP
 * Basic with the server's credentials, `User-Agent: ZulipServer/<version>`,
 * below `<url>/api/v1/remotes/`; errors mapped as the interface says.
 * @param fetchImpl `fetch` (tests pass their own)
 */
export function createHttpPushBouncer(url: string, orgId: string, orgKey: string, fetchImpl: typeof fetch = fetch): PushBouncer {
  const authorization = `Basic ${Buffer.from(`${orgId}:${orgKey}`).toString("base64")}`;

  async function call(method: "GET" | "POST", endpoint: string, body: Body, timeoutMs = TIMEOUT_MS): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { Authorization: authorization, "User-Agent": `ZulipServer/${ZULIP_VERSION}` };
    let payload: string | undefined;
    if (body && "json" in body) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(body.form)) if (v !== undefined) form.set(k, String(v));
      payload = form.toString();
    }
    let res: Response;
    try {
      res = await fetchImpl(new URL(`/api/v1/remotes/${endpoint}`, url), {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const name = err instanceof Error ? err.name : "Error";
      throw new PushBouncerRetryLaterError(`${name} while trying to connect to push notification bouncer`);
    }
    const text = await res.text();
    if (res.status >= 500) throw new PushBouncerRetryLaterError(`Received ${res.status} from push notification bouncer`);
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new PushBouncerRetryLaterError(`Unparseable answer (HTTP ${res.status}) from push notification bouncer`);
    }
    if (res.status >= 400) {
      const msg = typeof parsed.msg === "string" ? parsed.msg : `HTTP ${res.status}`;
      const code = parsed.code;
      if (code === "INVALID_ZULIP_SERVER") throw new PushBouncerServerCredentialsError(msg);
      if (code === "PUSH_NOTIFICATIONS_DISALLOWED") throw new PushNotificationsDisallowedError(msg);
      if (endpoint === "push/test_notification" && code === "INVALID_REMOTE_PUSH_DEVICE_TOKEN") {
        throw new InvalidRemotePushDeviceTokenError();
      }
      if (res.status === 429) throw new PushBouncerRetryLaterError(msg);
      throw new JsonableError(msg);
    }
    if (res.status !== 200) throw new PushBouncerRetryLaterError(`Push notification bouncer returned unexpected status code ${res.status}`);
    return parsed;
  }

  const deviceForm = (d: BouncerDevice) => ({
    server_uuid: orgId,
    user_uuid: d.user_uuid,
    realm_uuid: d.realm_uuid,
    user_id: d.user_id,
    token: d.token,
    token_kind: d.token_kind,
    ios_app_id: d.ios_app_id,
  });

  return {
    url,
    async registerServer(r) {
      const out = await call("POST", "server/register", {
        form: { zulip_org_id: orgId, zulip_org_key: orgKey, hostname: r.hostname, contact_email: r.contact_email, new_org_key: r.new_org_key },
      });
      return { created: out.created === true };
    },
    async registerDevice(d) {
      await call("POST", "push/register", { form: deviceForm(d) });
    },
    async unregisterDevice(d) {
      const { ios_app_id: _ignored, ...form } = deviceForm(d);
      await call("POST", "push/unregister", { form });
    },
    async unregisterAllDevices(u) {
      await call("POST", "push/unregister/all", {
        form: { server_uuid: orgId, realm_uuid: u.realm_uuid, user_uuid: u.user_uuid, user_id: u.user_id },
      });
    },
    async notify(request) {
      const out = await call("POST", "push/notify", { json: request });
      const deleted = (out.deleted_devices ?? {}) as { android_devices?: string[]; apple_devices?: string[] };
      return {
        total_android_devices: Number(out.total_android_devices ?? 0),
        total_apple_devices: Number(out.total_apple_devices ?? 0),
        deleted_devices: { android_devices: deleted.android_devices ?? [], apple_devices: deleted.apple_devices ?? [] },
        realm: (out.realm ?? null) as { can_push: boolean; expected_end_timestamp: number | null } | null,
      };
    },
    async sendTestNotification(request) {
      await call("POST", "push/test_notification", { json: request });
    },
    async analyticsStatus() {
      return (await call("GET", "server/analytics/status", undefined)) as unknown as BouncerAnalyticsStatus;
    },
    async postAnalytics(r) {
      const out = await call(
        "POST",
        "server/analytics",
        {
          form: {
            realm_counts: JSON.stringify(r.realm_counts),
            installation_counts: JSON.stringify(r.installation_counts),
            realmauditlog_rows: JSON.stringify(r.realmauditlog_rows),
            realms: JSON.stringify(r.realms),
            version: JSON.stringify(r.version),
            api_feature_level: JSON.stringify(r.api_feature_level),
          },
        },
        ANALYTICS_TIMEOUT_MS,
      );
      return { realms: (out.realms ?? {}) as BouncerAnalyticsResult["realms"] };
    },
  };
}
