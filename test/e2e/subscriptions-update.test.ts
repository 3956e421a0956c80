import { beforeAll, describe, expect, it } from "vitest";
import { getStream } from "../../shared/data/streams.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId, markEvents, streamByName, subscriptionOf } from "./streams-helpers.js";

const org = useTestOrg();

let publicId = 0;
let privateId = 0;

beforeAll(async () => {
  const { owner, member } = org.users;
  publicId = await createStreamId(org, owner, "Email Me");
  privateId = await createStreamId(org, member, "email-private", { inviteOnly: true, principals: [member.id] });
  await createStreamId(org, owner, "patch-leave", { principals: [owner.id, org.users.member2.id, org.users.guest.id] });
  await createStreamId(org, owner, "patch-join");
});

describe("GET /streams/{stream_id}/email_address", () => {
  it("answers <slug>.<token>.show-sender@<domain>, the same token every time", async () => {
    const { member, admin } = org.users;
    const res = await org.api(member, "GET", `/streams/${publicId}/email_address`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["email", "msg", "result"]);
    const token = (await getStream(org.stack.deps, org.realm.id, publicId))!.email_token!;
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    // The local stack's ROOT_DOMAIN is a host and port: the port is left out.
    const domain = org.stack.deps.config.ROOT_DOMAIN.replace(/:\d+$/, "");
    expect(res.body.email).toBe(`email-me.${token}.show-sender@${domain}`);
    expect((await org.api(admin, "GET", `/streams/${publicId}/email_address`)).body.email).toBe(res.body.email);
  });

  it("refuses streams the user cannot access: private without a subscription (administrators too), guests on public ones, missing", async () => {
    const { admin, guest, member } = org.users;
    expect((await org.api(member, "GET", `/streams/${privateId}/email_address`)).body.email).toMatch(/^email-private\./);
    for (const [who, id] of [[admin, privateId], [guest, publicId], [member, 999_999]] as const) {
      const res = await org.api(who, "GET", `/streams/${id}/email_address`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });
    }
  });
});

describe("PATCH /users/me/subscriptions", () => {
  it("subscribes and unsubscribes in one request, with the combined answer and both events", async () => {
    const { member2, owner } = org.users;
    const marks = await markEvents(org, [member2, owner]);
    const res = await org.api(member2, "PATCH", "/users/me/subscriptions", {
      add: [{ name: "patch-join" }, { name: "patch-new", color: "#e79ab5", description: "made by PATCH" }],
      delete: ["patch-leave", "Email Me"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { [member2.email]: ["patch-join", "patch-new"] },
      already_subscribed: {},
      removed: ["patch-leave"],
      not_removed: ["Email Me"],
    });
    const created = await streamByName(org, "patch-new");
    expect(created).toMatchObject({ description: "made by PATCH", invite_only: false });
    expect((await subscriptionOf(org, member2, created!.stream_id))?.color).toBe("#e79ab5");
    const leave = await streamByName(org, "patch-leave");
    expect((await subscriptionOf(org, member2, leave!.stream_id))?.active).not.toBe(true);

    const own = (await marks.since(member2)).filter((e) => e.type === "subscription").map((e) => e.op);
    expect(own).toEqual(expect.arrayContaining(["add", "remove"]));
    const seen = (await marks.since(owner)).filter((e) => e.type === "subscription" && (e.op === "peer_add" || e.op === "peer_remove"));
    const join = await streamByName(org, "patch-join");
    expect(seen).toContainEqual({ type: "subscription", op: "peer_add", stream_ids: [join!.stream_id], user_ids: [member2.id] });
    expect(seen).toContainEqual({ type: "subscription", op: "peer_remove", stream_ids: [leave!.stream_id], user_ids: [member2.id] });
  });

  it("answers already_subscribed, and lets a guest use delete alone", async () => {
    const { member2, guest } = org.users;
    const again = await org.api(member2, "PATCH", "/users/me/subscriptions", { add: [{ name: "patch-join" }] });
    expect(again.body).toEqual({
      result: "success",
      msg: "",
      subscribed: {},
      already_subscribed: { [member2.email]: ["patch-join"] },
      removed: [],
      not_removed: [],
    });
    const leave = await org.api(guest, "PATCH", "/users/me/subscriptions", { delete: ["patch-leave"] });
    expect(leave.body).toMatchObject({ result: "success", removed: ["patch-leave"], not_removed: [] });
  });

  it("refuses a request with nothing to do", async () => {
    for (const params of [{}, { add: [], delete: [] }]) {
      const res = await org.api(org.users.member, "PATCH", "/users/me/subscriptions", params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg: 'Nothing to do. Specify at least one of "add" or "delete".', code: "BAD_REQUEST" });
    }
  });

  it("checks both halves before writing anything: a bad delete leaves the add undone, and the reverse", async () => {
    const { member } = org.users;
    const badDelete = await org.api(member, "PATCH", "/users/me/subscriptions", {
      add: [{ name: "patch-never-created" }],
      delete: ["no-such-stream"],
    });
    expect(badDelete.status).toBe(400);
    expect(badDelete.body).toMatchObject({ result: "error", code: "STREAM_DOES_NOT_EXIST", msg: "Channel 'no-such-stream' does not exist" });
    expect(await streamByName(org, "patch-never-created")).toBeUndefined();

    const join = await streamByName(org, "patch-join");
    await org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "patch-join" }] });
    const badAdd = await org.api(member, "PATCH", "/users/me/subscriptions", {
      add: [{ name: "email-private" }, { name: "x".repeat(61) }],
      delete: ["patch-join"],
    });
    expect(badAdd.status).toBe(400);
    expect((await subscriptionOf(org, member, join!.stream_id))?.active).toBe(true);

    const badColor = await org.api(member, "PATCH", "/users/me/subscriptions", { add: [{ name: "patch-join", color: "red" }] });
    expect(badColor.body).toEqual({ result: "error", msg: "add.color is not a valid hex color code", code: "BAD_REQUEST" });
  });
});
