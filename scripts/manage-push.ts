/**
 * The push notification commands of `npm run manage` (scripts/manage.ts):
 *
 *   register-push-server --contact-email E [--hostname H] --agree-to-terms-of-service [--rotate-key]
 *   push-server-id
 *
 * Zulip's `manage.py register_server`: this server registers itself with
 * the push notification service (docs/deploying.md, "Mobile push
 * notifications") under its `ZULIP_ORG_ID` and `ZULIP_ORG_KEY`, then tells
 * the service which organizations it has.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { sendServerDataToPushBouncer } from "../shared/actions/push/server-data.js";
import type { Deps } from "../shared/deps.js";
import { isValidEmailAddress } from "../shared/domain/email.js";
import { listRealms } from "../shared/data/realms.js";
import { createHttpPushBouncer } from "../shared/push/http-bouncer.js";

/** Where Zulip publishes the terms of its push notification service. */
export const PUSH_SERVICE_TERMS_URL = "https://zulip.com/policies/terms";

/** A refusal of the command's input, printed as `error: <message>` (the CLI's `UsageError` wraps it). */
export class PushCommandError extends Error {}

export interface RegisterPushServerOptions {
  contactEmail?: string;
  /** @default the configured root domain */
  hostname?: string;
  agreeToTermsOfService: boolean;
  rotateKey: boolean;
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A new server key: 64 letters and digits, as Zulip's `generate_secrets` makes `zulip_org_key`. */
export function newOrgKey(): string {
  // 248 = 4 × 62: bytes below it map onto the alphabet without bias.
  let key = "";
  while (key.length < 64) {
    for (const byte of randomBytes(96)) if (byte < 248 && key.length < 64) key += ALPHANUMERIC[byte % 62];
  }
  return key;
}

/**
 * `register-push-server`: refuses without the terms agreed to (saying where
 * they are), registers the server (`POST remotes/server/register`: created
 * or updated), optionally rotating its key, then runs the
 * `push_bouncer_update` job once so the service knows the organizations
 * and their plans are stored.
 * @throws PushCommandError for missing input or push notifications not configured; the service's refusals as JsonableError
 */
export async function registerPushServer(deps: Deps, options: RegisterPushServerOptions, out: (line: string) => void): Promise<void> {
  const { PUSH_NOTIFICATION_BOUNCER_URL: url, ZULIP_ORG_ID: orgId } = deps.config;
  if (!deps.pushBouncer || !url || !orgId) {
    throw new PushCommandError(
      "push notifications are not configured: set PUSH_NOTIFICATION_BOUNCER_URL, ZULIP_ORG_ID and ZULIP_ORG_KEY " +
        "(on AWS: the pushNotifications setting; docs/deploying.md, \"Mobile push notifications\")",
    );
  }
  const contactEmail = options.contactEmail?.trim();
  if (!contactEmail) throw new PushCommandError("--contact-email is required: the address the push notification service writes to");
  if (!isValidEmailAddress(contactEmail)) throw new PushCommandError(`invalid email address '${contactEmail}'`);
  if (!options.agreeToTermsOfService) {
    throw new PushCommandError(
      `using the push notification service means agreeing to its terms of service (${PUSH_SERVICE_TERMS_URL}): ` +
        "read them, then run again with --agree-to-terms-of-service",
    );
  }
  const hostname = options.hostname?.trim() || deps.config.ROOT_DOMAIN;
  const newKey = options.rotateKey ? newOrgKey() : undefined;
  const { created } = await deps.pushBouncer.registerServer({ hostname, contact_email: contactEmail, new_org_key: newKey });
  out(`${created ? "Registered" : "Updated the registration of"} this server (${orgId}, ${hostname}) at ${url}`);
  // The upload's warnings and errors (a refusal) are the operator's to read: printed, not logged.
  const say = (level: string) => (msg: string, data?: Record<string, unknown>) =>
    out(`${level}: ${msg}${typeof data?.error === "string" ? ` (${data.error})` : ""}`);
  let updateDeps: Deps = { ...deps, log: { ...deps.log, warn: say("warning"), error: say("error") } };
  if (newKey !== undefined) {
    out(`New server key (ZULIP_ORG_KEY): ${newKey}`);
    out(
      "Store it where the server reads it now, or push notifications stop: on AWS, in the secret the stack's " +
        "PushNotificationsSecretArn output names (docs/deploying.md, \"Mobile push notifications\").",
    );
    updateDeps = { ...updateDeps, pushBouncer: createHttpPushBouncer(url, orgId, newKey) };
  }
  const result = await sendServerDataToPushBouncer(updateDeps);
  if (!result) {
    out("The push notification service refused the organizations' upload (above); see docs/deploying.md, \"Mobile push notifications\".");
    return;
  }
  out(`Reported ${result.realms} organization(s) to the service (${result.auditRows} with new user counts)`);
  for (const realm of await listRealms(deps)) {
    if (realm.deletion_started_at !== undefined) continue;
    const end = realm.push_notifications_enabled_end_timestamp;
    const until = typeof end === "number" ? ` until ${new Date(end * 1000).toISOString()}` : "";
    out(`  ${realm.name} (id ${realm.id}): push notifications ${realm.push_notifications_enabled ? `enabled${until}` : "not enabled by the service"}`);
  }
}

/** `push-server-id`: a new UUID for the `pushNotifications.zulipOrgId` setting (Zulip's `zulip_org_id`). */
export function pushServerId(out: (line: string) => void): void {
  out(randomUUID());
}
