import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for Zulip's push notification service (`push.zulipchat.com`,
 * Zulip's `zilencer` app) for tests: a local HTTP server that keeps
 * registered servers and devices, records every request, and answers as
 * the service does (`zilencer/views.py`), errors included — a wrong server
 * key (`INVALID_ZULIP_SERVER`), an unknown token on unregister
 * (`Token does not exist`) and test notifications
 * (`INVALID_REMOTE_PUSH_DEVICE_TOKEN`), a plan that does not allow pushes
 * (`PUSH_NOTIFICATIONS_DISALLOWED`), devices APNs/FCM stopped accepting
 * (returned in `deleted_devices`), and injected 5xx/429 answers.
 *
 * `env` is what the local stack needs to talk to it
 * (`PUSH_NOTIFICATION_BOUNCER_URL`, `ZULIP_ORG_ID`, `ZULIP_ORG_KEY`); the
 * server is registered from the start unless `registered: false`.
 */

export interface MockBouncerRequest {
  method: string;
  /** Below `/api/v1/remotes/`, e.g. `push/notify`. */
  endpoint: string;
  /** The form fields or the JSON body. */
  body: Record<string, unknown>;
  /** The HTTP Basic user (the server's `zulip_org_id`), or undefined. */
  orgId?: string;
  status: number;
}

export interface MockDevice {
  user_id?: number;
  user_uuid?: string;
  realm_uuid?: string;
  token: string;
  token_kind: number;
  ios_app_id?: string;
}

export interface MockBouncer {
  url: string;
  env: { PUSH_NOTIFICATION_BOUNCER_URL: string; ZULIP_ORG_ID: string; ZULIP_ORG_KEY: string };
  /** Every request, oldest first. */
  requests: MockBouncerRequest[];
  /** Registered devices. */
  devices: MockDevice[];
  /** The organizations the analytics uploads described, by UUID. */
  realms: Map<string, Record<string, unknown>>;
  /** The audit rows uploaded, in order. */
  auditRows: Record<string, unknown>[];
  /** The `push/notify` bodies accepted (status 200), oldest first. */
  notifications(): Record<string, unknown>[];
  /** Whether the plan allows pushes; false answers `PUSH_NOTIFICATIONS_DISALLOWED` with `reason`. */
  setCanPush(canPush: boolean, reason?: string, expectedEndTimestamp?: number | null): void;
  /** Forgets a device as APNs/FCM do when an app is uninstalled: the next notify reports it deleted. */
  dropDevice(token: string): void;
  /** The next `count` requests answer `status` with `body` (5xx, 429, …). */
  failNext(status: number, body?: Record<string, unknown>, count?: number): void;
  /** Resolves with the first request (from index `from`) that `match` accepts, within `timeoutMs`. */
  waitFor(match: (r: MockBouncerRequest) => boolean, timeoutMs?: number, from?: number): Promise<MockBouncerRequest>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  if ((req.headers["content-type"] ?? "").includes("application/json")) return JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(new URLSearchParams(text));
}

const error = (msg: string, code = "BAD_REQUEST") => ({ result: "error", msg, code });

/** Starts the mock on a free port of 127.0.0.1 (or `port`: `npm run mock-push-bouncer -- --port N`). */
export async function startMockBouncer(options: { registered?: boolean; port?: number } = {}): Promise<MockBouncer> {
  const orgId = randomUUID();
  const orgKey = randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, "");
  const servers = new Map<string, string>(options.registered === false ? [] : [[orgId, orgKey]]);
  const requests: MockBouncerRequest[] = [];
  const devices: MockDevice[] = [];
  const realms = new Map<string, Record<string, unknown>>();
  const auditRows: Record<string, unknown>[] = [];
  let plan = { canPush: true, reason: "", end: null as number | null };
  const failures: { status: number; body: Record<string, unknown> }[] = [];
  const waiters = new Set<() => void>();

  const sameUser = (d: MockDevice, body: Record<string, unknown>) =>
    (body.user_uuid !== undefined && d.user_uuid === body.user_uuid) ||
    (body.user_id !== undefined && d.user_id !== undefined && String(d.user_id) === String(body.user_id));

  function answer(endpoint: string, method: string, body: Record<string, unknown>): [number, Record<string, unknown>] {
    const ok = (data: Record<string, unknown> = {}) => [200, { result: "success", msg: "", ...data }] as [number, Record<string, unknown>];
    if (endpoint === "server/register" && method === "POST") {
      const id = String(body.zulip_org_id ?? "");
      const key = String(body.zulip_org_key ?? "");
      const existing = servers.get(id);
      if (existing !== undefined && existing !== key) return [401, error(`Zulip server auth failure: key does not match role ${id}`, "INVALID_ZULIP_SERVER")];
      servers.set(id, typeof body.new_org_key === "string" ? body.new_org_key : key);
      return ok({ created: existing === undefined });
    }
    if (endpoint === "push/register") {
      const kind = Number(body.token_kind);
      if (kind !== 1 && kind !== 2) return [400, error("Invalid token type")];
      if (kind === 1 && !body.ios_app_id) return [400, error("Missing ios_app_id")];
      const token = String(body.token ?? "");
      const exists = devices.some((d) => d.token === token && d.token_kind === kind && sameUser(d, body));
      if (!exists) {
        devices.push({
          user_id: body.user_id !== undefined ? Number(body.user_id) : undefined,
          user_uuid: body.user_uuid as string | undefined,
          realm_uuid: body.realm_uuid as string | undefined,
          token,
          token_kind: kind,
          ios_app_id: body.ios_app_id as string | undefined,
        });
      }
      return ok();
    }
    if (endpoint === "push/unregister") {
      const kind = Number(body.token_kind);
      const before = devices.length;
      for (let i = devices.length - 1; i >= 0; i--) {
        const d = devices[i]!;
        if (d.token === body.token && d.token_kind === kind && sameUser(d, body)) devices.splice(i, 1);
      }
      return devices.length === before ? [400, error("Token does not exist")] : ok();
    }
    if (endpoint === "push/unregister/all") {
      for (let i = devices.length - 1; i >= 0; i--) if (sameUser(devices[i]!, body)) devices.splice(i, 1);
      return ok();
    }
    if (endpoint === "push/notify") {
      if (!plan.canPush) {
        return [400, error(`Your plan doesn't allow sending push notifications. Reason provided by the server: ${plan.reason}`, "PUSH_NOTIFICATIONS_DISALLOWED")];
      }
      const mine = devices.filter((d) => sameUser(d, body));
      const android = mine.filter((d) => d.token_kind === 2).map((d) => d.token);
      const apple = mine.filter((d) => d.token_kind === 1).map((d) => d.token);
      const sentAndroid = (body.android_devices as string[] | undefined) ?? [];
      const sentApple = (body.apple_devices as string[] | undefined) ?? [];
      const realmKnown = typeof body.realm_uuid === "string" && realms.has(body.realm_uuid);
      return ok({
        total_android_devices: android.length,
        total_apple_devices: apple.length,
        deleted_devices: {
          android_devices: sentAndroid.filter((t) => !android.includes(t)),
          apple_devices: sentApple.filter((t) => !apple.includes(t)),
        },
        realm: realmKnown ? { can_push: plan.canPush, expected_end_timestamp: plan.end } : null,
      });
    }
    if (endpoint === "push/test_notification") {
      const found = devices.some((d) => d.token === body.token && d.token_kind === Number(body.token_kind) && sameUser(d, body));
      return found ? ok() : [400, error("Device not recognized by the push bouncer", "INVALID_REMOTE_PUSH_DEVICE_TOKEN")];
    }
    if (endpoint === "server/analytics/status" && method === "GET") {
      const last = auditRows.at(-1);
      return ok({ last_realm_count_id: 0, last_installation_count_id: 0, last_realmauditlog_id: last ? Number(last.id) : 0 });
    }
    if (endpoint === "server/analytics" && method === "POST") {
      const parse = (v: unknown) => (typeof v === "string" ? (JSON.parse(v) as unknown) : v);
      const uploaded = (parse(body.realms) ?? []) as Record<string, unknown>[];
      for (const r of uploaded) realms.set(String(r.uuid), r);
      const rows = (parse(body.realmauditlog_rows) ?? []) as Record<string, unknown>[];
      const lastId = Number(auditRows.at(-1)?.id ?? 0);
      for (const row of rows) {
        if (Number(row.id) <= lastId) return [400, error("Data is out of order.")];
      }
      auditRows.push(...rows);
      const status = Object.fromEntries(uploaded.map((r) => [String(r.uuid), { can_push: plan.canPush, expected_end_timestamp: plan.end }]));
      return ok({ realms: status });
    }
    return [404, error("Not found", "NOT_FOUND")];
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://mock");
      const endpoint = url.pathname.replace(/^\/api\/v1\/remotes\//, "");
      const body = await readBody(req);
      const auth = req.headers.authorization ?? "";
      const [user, pass] = auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString().split(":") : [];
      let status: number;
      let out: Record<string, unknown>;
      const failure = failures.shift();
      if (failure) [status, out] = [failure.status, failure.body];
      else if (endpoint !== "server/register" && (!user || servers.get(user) !== pass)) {
        [status, out] = [
          401,
          error(
            servers.has(user ?? "")
              ? `Zulip server auth failure: key does not match role ${user}`
              : `Zulip server auth failure: ${user} is not registered -- did you run \`manage.py register_server\`?`,
            "INVALID_ZULIP_SERVER",
          ),
        ];
      } else [status, out] = answer(endpoint, req.method ?? "GET", body);
      requests.push({ method: req.method ?? "GET", endpoint, body, orgId: user, status });
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(out));
      for (const wake of waiters) wake();
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    env: { PUSH_NOTIFICATION_BOUNCER_URL: url, ZULIP_ORG_ID: orgId, ZULIP_ORG_KEY: orgKey },
    requests,
    devices,
    realms,
    auditRows,
    notifications: () => requests.filter((r) => r.endpoint === "push/notify" && r.status === 200).map((r) => r.body),
    setCanPush(canPush, reason = "", expectedEndTimestamp = null) {
      plan = { canPush, reason, end: expectedEndTimestamp };
    },
    dropDevice(token) {
      for (let i = devices.length - 1; i >= 0; i--) if (devices[i]!.token === token) devices.splice(i, 1);
    },
    failNext(status, body = error(`HTTP ${status}`), count = 1) {
      for (let i = 0; i < count; i++) failures.push({ status, body });
    },
    waitFor(match, timeoutMs = 20_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.slice(from).find(match);
          if (!found) return false;
          cleanup();
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`mock push bouncer: no matching request within ${timeoutMs} ms (${requests.length} requests)`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        const wake = () => void check();
        if (!check()) waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
