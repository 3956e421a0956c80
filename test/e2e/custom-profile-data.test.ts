import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import type { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { queueClient } from "./streams-helpers.js";
import { storedUser } from "./users-support.js";

/**
 * Custom profile field values: `PATCH`/`DELETE /users/me/profile_data`,
 * `profile_data` of `PATCH /users/{user_id}`, each type's validation, the
 * `realm_user` `update` events a second client receives, `profile_data` in
 * `GET /users`, `GET /users/{id}` and register, and values removed with
 * their field or their choice. Field definitions: custom-profile-fields.test.ts.
 */

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const ok = { result: "success", msg: "" };

/** Field IDs by purpose, created in `beforeAll`. */
const f = {} as Record<"short" | "long" | "choice" | "date" | "link" | "person" | "github" | "pronouns" | "locked", number>;
let watcher: EventQueueClient;

async function createField(params: Record<string, unknown>): Promise<number> {
  const res = await org.api(org.users.admin, "POST", "/realm/profile_fields", params);
  expect(res.body.result).toBe("success");
  return res.body.id as number;
}

beforeAll(async () => {
  f.short = await createField({ name: "Nickname", field_type: 1 });
  f.long = await createField({ name: "Biography", field_type: 2 });
  f.choice = await createField({
    name: "Editor",
    field_type: 3,
    field_data: { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2" } },
  });
  f.date = await createField({ name: "Birthday", field_type: 4 });
  f.link = await createField({ name: "Website", field_type: 5 });
  f.person = await createField({ name: "Mentor", field_type: 6 });
  f.github = await createField({ field_type: 7, field_data: { subtype: "github" } });
  f.pronouns = await createField({ name: "Pronouns", field_type: 8 });
  f.locked = await createField({ name: "Employee ID", field_type: 1, editable_by_user: false });
  watcher = queueClient(org, org.users.member2);
  await watcher.register({ event_types: JSON.stringify(["realm_user"]) });
});

afterAll(async () => {
  await watcher?.delete();
});

const setOwn = (who: TestUser, data: unknown) => org.api(who, "PATCH", "/users/me/profile_data", { data });
const profileOf = async (user: TestUser) => (await storedUser(org, user.id)).profile_data;

/** The next `realm_user` `update` with a `custom_profile_field` of `fieldId` the second client receives. */
const nextValueEvent = (userId: number, fieldId: number) =>
  watcher.waitFor((e) => e.type === "realm_user" && e.person.user_id === userId && e.person.custom_profile_field?.id === fieldId);

describe("PATCH /users/me/profile_data", () => {
  it("sets a short text value, rendered; the second client, GET /users and register see it", async () => {
    const res = await setOwn(org.users.member, [{ id: f.short, value: "**Mo**" }]);
    expect(res.body).toEqual(ok);
    const stored = { value: "**Mo**", rendered_value: "<p><strong>Mo</strong></p>" };
    expect((await profileOf(org.users.member))[String(f.short)]).toEqual(stored);
    const event = await nextValueEvent(org.users.member.id, f.short);
    expect(event.person).toEqual({ user_id: org.users.member.id, custom_profile_field: { id: f.short, ...stored } });
    const all = await org.api(org.users.guest, "GET", "/users", { include_custom_profile_fields: true });
    const me = all.body.members.find((u: any) => u.user_id === org.users.member.id);
    expect(me.profile_data[String(f.short)]).toEqual(stored);
    const without = await org.api(org.users.guest, "GET", "/users");
    expect(without.body.members.find((u: any) => u.user_id === org.users.member.id)).not.toHaveProperty("profile_data");
    const one = await org.api(org.users.member2, "GET", `/users/${org.users.member.id}`, { include_custom_profile_fields: true });
    expect(one.body.user.profile_data[String(f.short)]).toEqual(stored);
    const reg = await queueClient(org, org.users.owner).register({ fetch_event_types: JSON.stringify(["realm_user"]) });
    const person = reg.realm_users.find((u: any) => u.user_id === org.users.member.id);
    expect(person.profile_data[String(f.short)]).toEqual(stored);
  });

  it("stores a valid value of every type as Zulip does", async () => {
    const data = [
      { id: f.long, value: "Likes *tea*" },
      { id: f.choice, value: "emacs" },
      { id: f.date, value: "1990-02-28" },
      { id: f.link, value: "https://example.com/me" },
      { id: f.person, value: [org.users.member2.id, org.users.admin.id] },
      { id: f.github, value: "octocat" },
      { id: f.pronouns, value: "she/her" },
    ];
    expect((await setOwn(org.users.moderator, data)).body).toEqual(ok);
    const profile = await profileOf(org.users.moderator);
    expect(profile[String(f.long)]).toEqual({ value: "Likes *tea*", rendered_value: "<p>Likes <em>tea</em></p>" });
    expect(profile[String(f.choice)]).toEqual({ value: "emacs" });
    expect(profile[String(f.date)]).toEqual({ value: "1990-02-28" });
    expect(profile[String(f.link)]).toEqual({ value: "https://example.com/me" });
    expect(profile[String(f.person)]).toEqual({ value: `[${org.users.member2.id},${org.users.admin.id}]` });
    expect(profile[String(f.github)]).toEqual({ value: "octocat" });
    expect(profile[String(f.pronouns)]).toEqual({ value: "she/her" });
    const event = await nextValueEvent(org.users.moderator.id, f.person);
    expect(event.person.custom_profile_field).toEqual({ id: f.person, value: `[${org.users.member2.id},${org.users.admin.id}]` });
  });

  it("sends nothing for an unchanged value and removes a value set to empty", async () => {
    await setOwn(org.users.owner, [{ id: f.pronouns, value: "they/them" }]);
    await nextValueEvent(org.users.owner.id, f.pronouns);
    expect((await setOwn(org.users.owner, [{ id: f.pronouns, value: "they/them" }])).body).toEqual(ok);
    expect((await setOwn(org.users.owner, [{ id: f.pronouns, value: "" }])).body).toEqual(ok);
    expect((await profileOf(org.users.owner))[String(f.pronouns)]).toBeUndefined();
    const event = await nextValueEvent(org.users.owner.id, f.pronouns);
    expect(event.person.custom_profile_field).toEqual({ id: f.pronouns, value: null });
  });

  it("keeps both of two concurrent changes to different fields", async () => {
    const [a, b] = await Promise.all([
      setOwn(org.users.member2, [{ id: f.github, value: "concurrent-a" }]),
      org.api(org.users.admin, "PATCH", `/users/${org.users.member2.id}`, { profile_data: [{ id: f.link, value: "https://b.example" }] }),
    ]);
    expect([a.body, b.body]).toEqual([ok, ok]);
    const profile = await profileOf(org.users.member2);
    expect(profile[String(f.github)]).toEqual({ value: "concurrent-a" });
    expect(profile[String(f.link)]).toEqual({ value: "https://b.example" });
    await org.api(org.users.admin, "PATCH", `/users/${org.users.member2.id}`, {
      profile_data: [
        { id: f.github, value: "" },
        { id: f.link, value: "" },
      ],
    });
  });

  it("lets a guest set their own value", async () => {
    expect((await setOwn(org.users.guest, [{ id: f.date, value: "2001-01-01" }])).body).toEqual(ok);
    expect((await profileOf(org.users.guest))[String(f.date)]).toEqual({ value: "2001-01-01" });
  });

  it("refuses a bot: This endpoint does not accept bot requests.", async () => {
    const res = await setOwn(org.users.bot, [{ id: f.short, value: "beep" }]);
    expect(res.body).toEqual(err("This endpoint does not accept bot requests."));
    expect((await profileOf(org.users.bot))[String(f.short)]).toBeUndefined();
  });

  describe("each type's validation (nothing is written)", () => {
    let inactive = 0;
    beforeAll(async () => {
      const u = await org.createUser("gone");
      expect((await org.api(org.users.admin, "DELETE", `/users/${u.id}`)).body).toEqual(ok);
      inactive = u.id;
    });
    const cases: [string, () => Record<string, unknown>, () => string][] = [
      ["a long short text", () => ({ id: f.short, value: "s".repeat(51) }), () => "Nickname is too long (limit: 50 characters)"],
      ["a list for a text field", () => ({ id: f.short, value: [1] }), () => "Nickname is not a string"],
      ["a long long text", () => ({ id: f.long, value: "l".repeat(501) }), () => "Biography is too long (limit: 500 characters)"],
      ["an unknown choice", () => ({ id: f.choice, value: "nano" }), () => "'nano' is not a valid choice for 'Editor'."],
      ["an impossible date", () => ({ id: f.date, value: "2023-02-29" }), () => "Birthday is not a date"],
      ["a date in another format", () => ({ id: f.date, value: "01/02/2023" }), () => "Birthday is not a date"],
      ["a link without scheme", () => ({ id: f.link, value: "example.com" }), () => "Website is not a URL"],
      ["a javascript: link", () => ({ id: f.link, value: "javascript:alert(1)" }), () => "Website is not a URL"],
      ["a string for a person picker", () => ({ id: f.person, value: "5" }), () => "User IDs is not a list"],
      ["an unknown user", () => ({ id: f.person, value: [999999] }), () => "Invalid user ID: 999999"],
      ["a bot", () => ({ id: f.person, value: [org.users.bot.id] }), () => `User with ID ${org.users.bot.id} is a bot`],
      ["a deactivated user", () => ({ id: f.person, value: [inactive] }), () => `User with ID ${inactive} is deactivated`],
      ["a long account name", () => ({ id: f.github, value: "g".repeat(51) }), () => "GitHub username is too long (limit: 50 characters)"],
      ["an unknown field", () => ({ id: 999999, value: "x" }), () => "Field id 999999 not found."],
    ];
    for (const [what, entry, msg] of cases) {
      it(`refuses ${what}`, async () => {
        const before = await profileOf(org.users.member2);
        const res = await setOwn(org.users.member2, [{ id: f.pronouns, value: "xe/xem" }, entry()]);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(err(msg()));
        expect(await profileOf(org.users.member2)).toEqual(before);
      });
    }

    it("refuses a malformed data list", async () => {
      expect((await setOwn(org.users.member2, [{ id: "one", value: "x" }])).body).toEqual(err('data[0]["id"] is not an integer'));
      expect((await setOwn(org.users.member2, "x")).body).toEqual(err('Argument "data" is not valid JSON.'));
    });
  });

  it("refuses a field not editable by users to a member, not to an administrator", async () => {
    const res = await setOwn(org.users.member, [{ id: f.locked, value: "E-1" }]);
    expect(res.body).toEqual(err("You are not allowed to change this field. Contact an administrator to update it."));
    expect((await profileOf(org.users.member))[String(f.locked)]).toBeUndefined();
    expect((await setOwn(org.users.admin, [{ id: f.locked, value: "A-1" }])).body).toEqual(ok);
    expect((await profileOf(org.users.admin))[String(f.locked)]).toEqual({ value: "A-1", rendered_value: "<p>A-1</p>" });
  });
});

describe("DELETE /users/me/profile_data", () => {
  it("removes the caller's values; the second client gets a null value", async () => {
    await setOwn(org.users.member, [{ id: f.link, value: "http://member.example" }]);
    await nextValueEvent(org.users.member.id, f.link);
    const res = await org.api(org.users.member, "DELETE", "/users/me/profile_data", { data: [f.link, f.date] });
    expect(res.body).toEqual(ok);
    expect((await profileOf(org.users.member))[String(f.link)]).toBeUndefined();
    const event = await nextValueEvent(org.users.member.id, f.link);
    expect(event.person).toEqual({ user_id: org.users.member.id, custom_profile_field: { id: f.link, value: null } });
  });

  it("refuses an unknown field, a locked field for a member, and a bot", async () => {
    const unknown = await org.api(org.users.member, "DELETE", "/users/me/profile_data", { data: [999999] });
    expect(unknown.body).toEqual(err("Field id 999999 not found."));
    await org.api(org.users.admin, "PATCH", `/users/${org.users.member.id}`, { profile_data: [{ id: f.locked, value: "M-7" }] });
    const locked = await org.api(org.users.member, "DELETE", "/users/me/profile_data", { data: [f.locked] });
    expect(locked.body).toEqual(err("You are not allowed to change this field. Contact an administrator to update it."));
    expect((await profileOf(org.users.member))[String(f.locked)]).toEqual({ value: "M-7", rendered_value: "<p>M-7</p>" });
    const bot = await org.api(org.users.bot, "DELETE", "/users/me/profile_data", { data: [f.short] });
    expect(bot.body).toEqual(err("This endpoint does not accept bot requests."));
  });
});

describe("PATCH /users/{user_id} profile_data", () => {
  it("lets an administrator set and clear another user's values, locked fields included", async () => {
    const target = org.users.member2;
    const res = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, {
      profile_data: [
        { id: f.locked, value: "E-42" },
        { id: f.choice, value: "vim" },
      ],
    });
    expect(res.body).toEqual(ok);
    const profile = await profileOf(target);
    expect(profile[String(f.locked)]).toEqual({ value: "E-42", rendered_value: "<p>E-42</p>" });
    expect(profile[String(f.choice)]).toEqual({ value: "vim" });
    const event = await nextValueEvent(target.id, f.choice);
    expect(event.person.custom_profile_field).toEqual({ id: f.choice, value: "vim" });
    const cleared = await org.api(org.users.admin, "PATCH", `/users/${target.id}`, { profile_data: [{ id: f.choice, value: null }] });
    expect(cleared.body).toEqual(ok);
    expect((await profileOf(target))[String(f.choice)]).toBeUndefined();
  });

  it("validates values as the own-profile endpoint does", async () => {
    const res = await org.api(org.users.owner, "PATCH", `/users/${org.users.member2.id}`, {
      profile_data: [{ id: f.date, value: "tomorrow" }],
    });
    expect(res.body).toEqual(err("Birthday is not a date"));
  });

  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who}: Insufficient permission`, async () => {
      const res = await org.api(org.users[who], "PATCH", `/users/${org.users.member2.id}`, {
        profile_data: [{ id: f.short, value: "hijack" }],
      });
      expect(res.body).toEqual(err("Insufficient permission"));
      expect((await profileOf(org.users.member2))[String(f.short)]).toBeUndefined();
    });
  }
});

describe("values follow their field", () => {
  it("removing a choice removes the values that chose it, with a null value event", async () => {
    await setOwn(org.users.member, [{ id: f.choice, value: "vim" }]);
    await setOwn(org.users.moderator, [{ id: f.choice, value: "emacs" }]);
    await nextValueEvent(org.users.member.id, f.choice);
    const res = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${f.choice}`, {
      field_data: { emacs: { text: "Emacs", order: "1" } },
    });
    expect(res.body).toEqual(ok);
    expect((await profileOf(org.users.member))[String(f.choice)]).toBeUndefined();
    expect((await profileOf(org.users.moderator))[String(f.choice)]).toEqual({ value: "emacs" });
    const event = await nextValueEvent(org.users.member.id, f.choice);
    expect(event.person.custom_profile_field).toEqual({ id: f.choice, value: null });
  });

  it("deleting a field removes every user's value of it", async () => {
    const id = await createField({ name: "Temporary", field_type: 1 });
    for (const who of [org.users.member, org.users.guest, org.users.owner]) {
      expect((await setOwn(who, [{ id, value: `t-${who.id}` }])).body).toEqual(ok);
    }
    expect((await org.api(org.users.admin, "DELETE", `/realm/profile_fields/${id}`)).body).toEqual(ok);
    for (const who of [org.users.member, org.users.guest, org.users.owner]) {
      expect((await profileOf(who))[String(id)]).toBeUndefined();
    }
    const all = await org.api(org.users.member, "GET", "/users", { include_custom_profile_fields: true });
    for (const u of all.body.members) if (u.profile_data) expect(u.profile_data).not.toHaveProperty(String(id));
    const gone = await setOwn(org.users.member, [{ id, value: "again" }]);
    expect(gone.body).toEqual(err(`Field id ${id} not found.`));
  });
});
