import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { sendRequest, type TestUser } from "../support/api-client.js";
import { useTestOrg, type TestOrg } from "../support/local-stack.js";
import { expectMatchesContract, itContract } from "../support/openapi.js";
import { jsonCall, webLogin } from "../support/web-session.js";

/**
 * A stand-in BigBlueButton server: `api/create` checks the checksum with
 * {@link BBB_SECRET} as a real server does (a wrong one gets
 * `checksumError`), records each create, and answers as `mode` says.
 */
const BBB_SECRET = "bbb-shared-secret";
const CREATE_TIME = "1531155809613";
type Mode = "success" | "checksumError" | "failed" | "httpError";
let mode: Mode = "success";
const creates: URLSearchParams[] = [];

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const xml = (fields: Record<string, string>) =>
  `<?xml version="1.0"?>\n<response>${Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`).join("")}</response>`;

const fakeBbb = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://bbb.invalid");
  const [query = "", checksum] = (req.url ?? "").split("?")[1]?.split("&checksum=") ?? [];
  if (url.pathname !== "/bigbluebutton/api/create") return void res.writeHead(404).end();
  if (mode === "httpError") return void res.writeHead(503).end("unavailable");
  res.writeHead(200, { "content-type": "text/xml" });
  if (mode === "checksumError" || checksum !== sha256(`create${query}${BBB_SECRET}`)) {
    return void res.end(xml({ returncode: "FAILED", messageKey: "checksumError", message: "Checksums do not match" }));
  }
  creates.push(new URLSearchParams(query));
  if (mode === "failed") return void res.end(xml({ returncode: "FAILED", messageKey: "idNotUnique", message: "taken" }));
  res.end(xml({ returncode: "SUCCESS", meetingID: url.searchParams.get("meetingID") ?? "", createTime: CREATE_TIME, messageKey: "" }));
});
await new Promise<void>((resolve) => fakeBbb.listen(0, "127.0.0.1", resolve));
const BBB_URL = `http://127.0.0.1:${(fakeBbb.address() as AddressInfo).port}/bigbluebutton`;
afterAll(() => new Promise<void>((resolve) => fakeBbb.close(() => resolve())));

const basic = (user: TestUser) => ({ authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}` });
const create = (org: TestOrg, user: TestUser, params: Record<string, unknown>) => org.api(user, "GET", "/calls/bigbluebutton/create", params);
/** Follows a join link as `user` with API credentials, without following the redirect. */
const join = (org: TestOrg, user: TestUser, link: string) => sendRequest(`${org.url}${link}`, "GET", {}, basic(user), "manual");
const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

/** The BigBlueButton join URL of a redirect, with its checksum checked against the shared secret. */
function joinTarget(location: string | null): URLSearchParams {
  expect(location).toMatch(new RegExp(`^${BBB_URL}/api/join\\?`));
  const [query, checksum] = location!.split("?")[1]!.split("&checksum=") as [string, string];
  expect(checksum).toBe(sha256(`join${query}${BBB_SECRET}`));
  return new URLSearchParams(query);
}

describe("BigBlueButton not configured", () => {
  const org = useTestOrg();

  it("create answers a join link anyway, and following it says BigBlueButton is not configured", async () => {
    const res = await create(org, org.users.member, { meeting_name: "standup" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", url: expect.stringMatching(/^\/calls\/bigbluebutton\/join\?bigbluebutton=[\w-]+\.[\w-]+$/) });
    const followed = await join(org, org.users.member, res.body.url);
    expect(followed.status).toBe(400);
    expect(followed.body).toEqual(err("BigBlueButton is not configured."));
  });

  it("does not list BigBlueButton as a provider and refuses it as the organization's", async () => {
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(Object.keys(reg.body.realm_available_video_chat_providers)).toEqual(["disabled", "jitsi_meet"]);
    const res = await org.api(org.users.admin, "PATCH", "/realm", { video_chat_provider: 4 });
    expect(res.body).toEqual(err("Invalid video_chat_provider 4"));
    const after = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(after.body.realm_video_chat_provider).toBe(1);
  });
});

describe("BigBlueButton configured", () => {
  const org = useTestOrg({ env: { BIGBLUEBUTTON_URL: BBB_URL, BIGBLUEBUTTON_SECRET: BBB_SECRET } });

  beforeEach(() => {
    mode = "success";
    creates.length = 0;
  });

  it("lists BigBlueButton as a provider an administrator may choose", async () => {
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(reg.body.realm_available_video_chat_providers).toEqual({
      disabled: { name: "None", id: 0 },
      jitsi_meet: { name: "Jitsi Meet", id: 1 },
      big_blue_button: { name: "BigBlueButton", id: 4 },
    });
    expect((await org.api(org.users.admin, "PATCH", "/realm", { video_chat_provider: 4 })).body).toMatchObject({ result: "success" });
    const after = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(after.body.realm_video_chat_provider).toBe(4);
  });

  itContract("the create answer and register with BigBlueButton listed match the OpenAPI contract", async () => {
    const res = await create(org, org.users.member, { meeting_name: "test_channel meeting" });
    expectMatchesContract("GET", "/calls/bigbluebutton/create", 200, res.body);
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expectMatchesContract("POST", "/register", 200, reg.body);
  });

  it("refuses a create without meeting_name, or with a too long one or a non-boolean voice_only", async () => {
    expect((await create(org, org.users.member, {})).body).toEqual({
      ...err("Missing 'meeting_name' argument"),
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "meeting_name",
    });
    expect((await create(org, org.users.member, { meeting_name: "m".repeat(501) })).body).toEqual(
      err("meeting_name is too long (limit: 500 characters)"),
    );
    expect((await create(org, org.users.member, { meeting_name: "m", voice_only: "yes" })).body).toMatchObject({ result: "error" });
  });

  it("creates the meeting on the server and sends the creator in as moderator, anyone else as viewer", async () => {
    const { body } = await create(org, org.users.member, { meeting_name: "Design review & más", voice_only: true });
    const link = body.url as string;

    const creator = await join(org, org.users.member, link);
    expect(creator.status).toBe(302);
    const asCreator = joinTarget(creator.headers.get("location"));
    expect(creates).toHaveLength(1);
    const meetingId = creates[0]!.get("meetingID");
    expect(meetingId).toMatch(/^zulip-\d{12}$/);
    expect(Object.fromEntries(creates[0]!)).toEqual({ meetingID: meetingId, name: "Design review & más", lockSettingsDisableCam: "true" });
    expect(Object.fromEntries(asCreator)).toEqual({
      meetingID: meetingId,
      role: "MODERATOR",
      fullName: org.users.member.fullName,
      createTime: CREATE_TIME,
    });

    // Another user of the organization, logged in to the web app: the session cookie alone.
    const session = await webLogin(org.url, org.users.guest.email, `${org.users.guest.email}-password`);
    const viewer = await jsonCall(org.url, session, "GET", link, {}, { prefix: "", csrf: false });
    expect(viewer.status).toBe(302);
    expect(Object.fromEntries(joinTarget(viewer.headers.get("location")))).toEqual({
      meetingID: meetingId,
      role: "VIEWER",
      fullName: org.users.guest.fullName,
      createTime: CREATE_TIME,
    });
    expect(creates.map((c) => c.get("meetingID"))).toEqual([meetingId, meetingId]);
  });

  it("gives each call its own meeting and defaults voice_only to false", async () => {
    const first = (await create(org, org.users.owner, { meeting_name: "a" })).body.url as string;
    const second = (await create(org, org.users.owner, { meeting_name: "a" })).body.url as string;
    expect((await join(org, org.users.owner, first)).status).toBe(302);
    expect((await join(org, org.users.owner, second)).status).toBe(302);
    expect(creates.map((c) => c.get("lockSettingsDisableCam"))).toEqual(["false", "false"]);
    expect(creates[0]!.get("meetingID")).not.toBe(creates[1]!.get("meetingID"));
  });

  it("refuses a tampered or truncated link without calling the server", async () => {
    const link = (await create(org, org.users.member, { meeting_name: "private" })).body.url as string;
    const signed = link.split("bigbluebutton=")[1]!;
    const [payload, signature] = signed.split(".") as [string, string];
    const fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    // A guest who rewrites the link to make themselves moderator of it.
    const forged = Buffer.from(JSON.stringify({ ...fields, moderator: org.users.guest.id })).toString("base64url");
    for (const value of [`${forged}.${signature}`, payload, `${payload}.`, `${payload}.${signature.slice(1)}`, "x.y", ""]) {
      const res = await join(org, org.users.guest, `/calls/bigbluebutton/join?bigbluebutton=${value}`);
      expect(res.status, value).toBe(400);
      expect(res.body, value).toEqual(err("Invalid signature."));
    }
    expect(creates).toEqual([]);
    const missing = await sendRequest(`${org.url}/calls/bigbluebutton/join`, "GET", {}, basic(org.users.guest), "manual");
    expect(missing.body).toEqual({ ...err("Missing 'bigbluebutton' argument"), code: "REQUEST_VARIABLE_MISSING", var_name: "bigbluebutton" });
  });

  it("needs a logged-in user", async () => {
    const link = (await create(org, org.users.member, { meeting_name: "m" })).body.url as string;
    const res = await sendRequest(`${org.url}${link}`, "GET", {}, {}, "manual");
    expect(res.status).toBe(401);
    expect(res.body.result).toBe("error");
    expect(creates).toEqual([]);
  });

  it.each([
    ["checksumError", "Error authenticating to the BigBlueButton server."],
    ["failed", "BigBlueButton server returned an unexpected error."],
    ["httpError", "Error connecting to the BigBlueButton server."],
  ] as const)("answers a %s from the server with %j", async (answer, msg) => {
    const link = (await create(org, org.users.member, { meeting_name: "m" })).body.url as string;
    mode = answer;
    const res = await join(org, org.users.member, link);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err(msg));
  });
});
