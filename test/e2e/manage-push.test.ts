import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../scripts/manage.js";
import { getRealm } from "../../shared/data/realms.js";
import type { Deps } from "../../shared/deps.js";
import { startMockBouncer } from "../support/mock-bouncer.js";
import { useTestOrg } from "../support/local-stack.js";

/**
 * `npm run manage -- register-push-server` (Zulip's `manage.py
 * register_server`) against the mock push notification service, which
 * starts without this server registered.
 */
const bouncer = await startMockBouncer({ registered: false });
const org = useTestOrg({ env: bouncer.env });
afterAll(() => bouncer.close());

async function manage(argv: string[], deps: Deps = org.stack.deps): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { deps, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

const REGISTER = ["register-push-server", "--contact-email", "ops@test.example"];

describe("manage register-push-server", () => {
  it("refuses without agreeing to the terms of service, saying where they are, and sends nothing", async () => {
    const { code, err } = await manage(REGISTER);
    expect(code).toBe(1);
    expect(err).toEqual([
      "error: using the push notification service means agreeing to its terms of service (https://zulip.com/policies/terms): " +
        "read them, then run again with --agree-to-terms-of-service",
    ]);
    expect(bouncer.requests).toEqual([]);
  });

  it("refuses a missing or invalid contact email", async () => {
    expect((await manage(["register-push-server", "--agree-to-terms-of-service"])).err).toEqual([
      "error: --contact-email is required: the address the push notification service writes to",
    ]);
    expect((await manage(["register-push-server", "--contact-email", "nope", "--agree-to-terms-of-service"])).err).toEqual([
      "error: invalid email address 'nope'",
    ]);
    expect(bouncer.requests).toEqual([]);
  });

  it("refuses when push notifications are not configured", async () => {
    const { code, err } = await manage([...REGISTER, "--agree-to-terms-of-service"], { ...org.stack.deps, pushBouncer: undefined });
    expect(code).toBe(1);
    expect(err[0]).toMatch(/^error: push notifications are not configured: set PUSH_NOTIFICATION_BOUNCER_URL, ZULIP_ORG_ID and ZULIP_ORG_KEY/);
  });

  it("registers the server under the root domain, then reports the organizations and stores their status", async () => {
    // Act
    const { code, out, err } = await manage([...REGISTER, "--agree-to-terms-of-service"]);
    // Assess
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const host = org.stack.deps.config.ROOT_DOMAIN;
    const register = bouncer.requests.find((r) => r.endpoint === "server/register")!;
    expect(register.body).toMatchObject({
      zulip_org_id: bouncer.env.ZULIP_ORG_ID,
      zulip_org_key: bouncer.env.ZULIP_ORG_KEY,
      hostname: host,
      contact_email: "ops@test.example",
    });
    expect(register.body.new_org_key).toBeUndefined();
    expect(bouncer.requests.map((r) => [r.endpoint, r.status])).toEqual([
      ["server/register", 200],
      ["server/analytics/status", 200],
      ["server/analytics", 200],
    ]);
    const realm = (await getRealm(org.stack.deps, org.realm.id))!;
    expect(bouncer.realms.has(realm.uuid!)).toBe(true);
    expect(realm.push_notifications_enabled).toBe(true);
    expect(out).toEqual([
      `Registered this server (${bouncer.env.ZULIP_ORG_ID}, ${host}) at ${bouncer.url}`,
      "Reported 1 organization(s) to the service (1 with new user counts)",
      `  Test Organization (id ${realm.id}): push notifications enabled`,
    ]);
  });

  it("updates the registration when run again, with another hostname", async () => {
    const from = bouncer.requests.length;
    const { code, out } = await manage([...REGISTER, "--hostname", "chat.example.org", "--agree-to-terms-of-service"]);
    expect(code).toBe(0);
    expect(out[0]).toBe(`Updated the registration of this server (${bouncer.env.ZULIP_ORG_ID}, chat.example.org) at ${bouncer.url}`);
    expect(out[1]).toBe("Reported 1 organization(s) to the service (0 with new user counts)");
    expect(bouncer.requests[from]!.body).toMatchObject({ hostname: "chat.example.org" });
  });

  it("with --rotate-key, sends a new 64-character key, prints it, and uploads with it", async () => {
    // Act
    const from = bouncer.requests.length;
    const { code, out } = await manage([...REGISTER, "--rotate-key", "--agree-to-terms-of-service"]);
    // Assess
    expect(code).toBe(0);
    const newKey = String(bouncer.requests[from]!.body.new_org_key);
    expect(newKey).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(out[1]).toBe(`New server key (ZULIP_ORG_KEY): ${newKey}`);
    // The mock now accepts only the new key: the upload after the rotation used it.
    const upload = bouncer.requests.slice(from).find((r) => r.endpoint === "server/analytics")!;
    expect(upload.status).toBe(200);
    // The stack still holds the old key, which the service now refuses.
    await expect(org.stack.deps.pushBouncer!.analyticsStatus()).rejects.toThrow(/key does not match/);
  });
});

describe("manage push-server-id", () => {
  it("prints a new UUID without needing a deployment", async () => {
    const out: string[] = [];
    const code = await main(["push-server-id"], { env: {}, out: (l) => out.push(l) });
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
