import { describe, expect, it } from "vitest";
import { listRealmPlaygrounds } from "../../shared/data/playgrounds.js";
import { useTestOrg } from "../support/local-stack.js";
import { eventCursors, eventsAfter } from "./users-support.js";
import { queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const stored = () => listRealmPlaygrounds(org.stack.deps, org.realm.id);
const add = (params: Record<string, unknown>, who = org.users.admin) => org.api(who, "POST", "/realm/playgrounds", params);

describe("POST /realm/playgrounds", () => {
  it.each(["moderator", "member", "guest", "bot"] as const)("refuses a %s", async (who) => {
    const res = await add({ name: "P", pygments_language: "Python", url_template: "https://p.example/?c={code}" }, org.users[who]);
    expect(res.body).toEqual(err("Must be an organization administrator"));
    expect(await stored()).toEqual([]);
  });

  it("adds a playground for an administrator, tells every active user, and register lists it", async () => {
    const watcher = queueClient(org, org.users.guest);
    await watcher.register({ event_types: ["realm_playgrounds"] });
    const res = await add({ name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    const id = res.body.id as number;
    const expected = { id, name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" };
    const event = await watcher.waitFor((e) => e.type === "realm_playgrounds");
    expect(event).toEqual({ id: event.id, type: "realm_playgrounds", realm_playgrounds: [expected] });
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm_playgrounds"] });
    expect(reg.body.realm_playgrounds).toEqual([expected]);
    expect(await stored()).toEqual([{ ...expected, realm_id: org.realm.id }]);
  });

  it("accepts the older url_prefix (for an owner too) and appends {code}", async () => {
    const res = await add({ name: "Rust", pygments_language: "Rust", url_prefix: "https://play.rust.example/?code=" }, org.users.owner);
    expect(res.body).toMatchObject({ result: "success" });
    expect((await stored()).find((p) => p.id === res.body.id)?.url_template).toBe("https://play.rust.example/?code={code}");
  });

  it.each([
    [{ pygments_language: "Go", url_template: "https://g.example/{code}" }, "Missing 'name' argument"],
    [{ name: "Go", url_template: "https://g.example/{code}" }, "Missing 'pygments_language' argument"],
    [{ name: "Go", pygments_language: "Go" }, "Missing 'url_template' argument"],
    [{ name: "", pygments_language: "Go", url_template: "https://g.example/{code}" }, "This field cannot be blank."],
    [{ name: "Go", pygments_language: "Go<>", url_template: "https://g.example/{code}" }, "Invalid characters in pygments language"],
    [{ name: "Go", pygments_language: "Go", url_template: "https://g.example/" }, '"code" should be the only variable present in the URL template'],
    [{ name: "Go", pygments_language: "Go", url_template: "https://g.example/{code}/{other}" }, '"code" should be the only variable present in the URL template'],
    [{ name: "Go", pygments_language: "Go", url_template: "https://g.example/{code" }, "Invalid URL template."],
    [{ name: "n".repeat(51), pygments_language: "Go", url_template: "https://g.example/{code}" }, "name is too long (limit: 50 characters)"],
    [{ name: "Go", pygments_language: "G".repeat(41), url_template: "https://g.example/{code}" }, "pygments_language is too long (limit: 40 characters)"],
    [{ name: "Python playground", pygments_language: "Python", url_template: "https://other.example/{code}" }, "Realm playground with this Realm, Pygments language and Name already exists."],
  ])("refuses %j with %j", async (params, msg) => {
    const before = await stored();
    const res = await add(params);
    expect(res.body).toMatchObject({ result: "error", msg });
    expect(await stored()).toEqual(before);
  });
});

describe("DELETE /realm/playgrounds/{playground_id}", () => {
  it.each(["moderator", "member", "guest", "bot"] as const)("refuses a %s", async (who) => {
    const [first] = await stored();
    const res = await org.api(org.users[who], "DELETE", `/realm/playgrounds/${first!.id}`);
    expect(res.body).toEqual(err("Must be an organization administrator"));
    expect((await stored()).some((p) => p.id === first!.id)).toBe(true);
  });

  it("refuses an unknown playground", async () => {
    expect((await org.api(org.users.admin, "DELETE", "/realm/playgrounds/999999")).body).toEqual(err("Invalid playground"));
  });

  it("removes a playground and sends the remaining list", async () => {
    const before = await stored();
    const gone = before.find((p) => p.name === "Python playground")!;
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await org.api(org.users.admin, "DELETE", `/realm/playgrounds/${gone.id}`);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const remaining = before.filter((p) => p.id !== gone.id).map(({ realm_id: _r, ...p }) => p);
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm_playgrounds", realm_playgrounds: remaining },
    ]);
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm_playgrounds"] });
    expect(reg.body.realm_playgrounds).toEqual(remaining);
    expect((await org.api(org.users.admin, "DELETE", `/realm/playgrounds/${gone.id}`)).body).toEqual(err("Invalid playground"));
  });
});
