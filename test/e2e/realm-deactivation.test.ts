import { describe, expect, it } from "vitest";
import { main } from "../../scripts/manage.js";
import { getRealm } from "../../shared/data/realms.js";
import { useTestOrg } from "../support/local-stack.js";
import { serverHoldsLongPoll } from "../support/long-poll.js";
import { queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const deactivated = { result: "error", msg: "This organization has been deactivated", code: "UNAUTHORIZED" };

async function manage(...argv: string[]) {
  const out: string[] = [];
  const errors: string[] = [];
  const code = await main(argv, { deps: org.stack.deps, out: (l) => out.push(l), err: (l) => errors.push(l) });
  return { code, out, err: errors };
}

const isDeactivated = async () => (await getRealm(org.stack.deps, org.realm.id))!.deactivated;

describe("POST /realm/deactivate", () => {
  it.each(["admin", "moderator", "member", "guest", "bot"] as const)("refuses a %s", async (who) => {
    const res = await org.api(org.users[who], "POST", "/realm/deactivate");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("Must be an organization owner"));
    expect(await isDeactivated()).toBe(false);
  });

  it("refuses a malformed deletion_delay_days, changing nothing", async () => {
    const res = await org.api(org.users.owner, "POST", "/realm/deactivate", { deletion_delay_days: "soon" });
    expect(res.body).toEqual(err('Argument "deletion_delay_days" is not valid JSON.'));
    expect(await isDeactivated()).toBe(false);
  });

  it("lets an owner deactivate: long polls get realm deactivated, then every request is refused until the CLI reactivates", async () => {
    const watcher = queueClient(org, org.users.member2);
    await watcher.register({ event_types: ["realm"] });
    // A long poll already waiting when the organization is deactivated returns with the event.
    const held = serverHoldsLongPoll(org.stack.deps, org.users.member2.id);
    const pending = watcher.poll();
    expect(await held).toBe(true);
    const res = await org.api(org.users.owner, "POST", "/realm/deactivate", { deletion_delay_days: null });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await isDeactivated()).toBe(true);
    expect((await pending).map(({ id: _id, ...e }) => e)).toEqual([{ type: "realm", op: "deactivated", realm_id: org.realm.id }]);

    for (const who of ["owner", "admin", "member", "guest", "bot"] as const) {
      const refused = await org.api(org.users[who], "GET", "/users/me");
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(deactivated);
    }
    const poll = await watcher.call("GET", "/events", { queue_id: watcher.queueId, last_event_id: -1, dont_block: true });
    expect(poll.status).toBe(401);
    expect(poll.body).toEqual(deactivated);

    const again = await manage("deactivate-realm", "--realm", org.realm.string_id);
    expect(again).toEqual({ code: 0, out: [`Organization '${org.realm.name}' was already deactivated`], err: [] });

    const reactivated = await manage("reactivate-realm", "--realm", org.realm.string_id);
    expect(reactivated).toEqual({ code: 0, out: [`Organization '${org.realm.name}' is now active`], err: [] });
    expect(await isDeactivated()).toBe(false);
    expect((await org.api(org.users.member, "GET", "/users/me")).body).toMatchObject({ result: "success", user_id: org.users.member.id });
    // The queue survived the deactivation: nothing new is waiting in it.
    expect(await watcher.poll({ dontBlock: true })).toEqual([]);
  });
});

describe("manage deactivate-realm / reactivate-realm", () => {
  it("deactivates and reactivates through the CLI", async () => {
    expect(await manage("deactivate-realm", "--realm", org.realm.string_id)).toEqual({
      code: 0,
      out: [`Organization '${org.realm.name}' is now deactivated`],
      err: [],
    });
    expect((await org.api(org.users.owner, "GET", "/users/me")).body).toEqual(deactivated);
    expect(await manage("reactivate-realm", "--realm", org.realm.string_id)).toMatchObject({ code: 0 });
    expect(await manage("reactivate-realm", "--realm", org.realm.string_id)).toEqual({
      code: 0,
      out: [`Organization '${org.realm.name}' was already active`],
      err: [],
    });
    expect((await org.api(org.users.owner, "GET", "/users/me")).body).toMatchObject({ result: "success" });
  });

  it("refuses an unknown organization and stray options", async () => {
    expect(await manage("deactivate-realm", "--realm", "nowhere")).toMatchObject({
      code: 1,
      err: ["error: no organization with subdomain 'nowhere'"],
    });
    expect(await manage("reactivate-realm", "--realm", org.realm.string_id, "--email", "x@y.z")).toMatchObject({
      code: 1,
      err: ["error: reactivate-realm does not take --email"],
    });
    expect(await isDeactivated()).toBe(false);
  });
});
