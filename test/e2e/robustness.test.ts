import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { createStream } from "./streams-helpers.js";

// Inputs that end up in DynamoDB keys, and paths that do not decode: found by
// fuzzing every route. Each must get a Zulip error envelope, never a 500.
const org = useTestOrg();

const long = "x".repeat(3000);
const longEmail = `${long}@test.example`;

function isClientError(res: { status: number; body: Record<string, unknown> }) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toMatchObject({ result: "error", msg: expect.any(String), code: expect.any(String) });
}

describe("values longer than a DynamoDB key may be", () => {
  it("are simply not found, wherever they name a user, stream or queue", async () => {
    const { member } = org.users;
    await createStream(org, member, "robust", {});
    const cases: [string, string, Record<string, unknown>, string][] = [
      ["POST", "/fetch_api_key", { username: longEmail, password: "x" }, "Your username or password is incorrect"],
      ["GET", `/users/${longEmail}`, {}, "No such user"],
      ["GET", "/get_stream_id", { stream: long }, `Invalid channel name '${long}'`],
      ["POST", "/messages", { type: "stream", to: long, topic: "t", content: "x" }, `Channel '${long}' does not exist`],
      ["POST", "/messages", { type: "private", to: [longEmail], content: "x" }, `Invalid email '${longEmail}'`],
      ["POST", "/users/me/subscriptions", { subscriptions: [{ name: "robust" }], principals: [longEmail] }, "No such user"],
      ["GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["stream", long]] }, `Invalid narrow operator: unknown channel ${long}`],
      ["GET", "/events", { queue_id: long, last_event_id: -1, dont_block: true }, `Bad event queue ID: ${long}`],
      ["DELETE", "/events", { queue_id: long }, `Bad event queue ID: ${long}`],
    ];
    for (const [method, path, params, msg] of cases) {
      const res = await org.api(member, method, path, params);
      isClientError(res);
      expect(res.body.msg).toBe(msg);
    }
  });

  it("a stream link to a name no stream can have renders as text", async () => {
    const res = await org.api(org.users.member, "POST", "/messages", { type: "stream", to: "robust", topic: "t", content: `#**${long}**` });
    expect(res.body).toMatchObject({ result: "success" });
  });
});

describe("paths whose percent-escapes do not decode", () => {
  it("are unknown paths (404), not server errors", async () => {
    for (const path of ["/users/%zz/presence", "/streams/%E0%A4%A", "/messages/%ED%A0%80/history"]) {
      const res = await fetch(`${org.url}/api/v1${path}`, {
        headers: { authorization: `Basic ${Buffer.from(`${org.users.member.email}:${org.users.member.apiKey}`).toString("base64")}` },
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ result: "error", code: expect.any(String) });
    }
  });
});
