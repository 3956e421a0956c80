import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

describe("PATCH /settings", () => {
  it("stores changed settings and sends one user_settings event each, to the user only", async () => {
    // Prepare
    const me = await org.createUser("settler");
    const cursors = await eventCursors(org, [me.id, org.users.member.id]);
    // Act
    const res = await org.api(me, "PATCH", "/settings", {
      color_scheme: 2,
      enter_sends: true,
      emojiset: "twitter",
      default_language: "de",
    });
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, me.id)).settings).toEqual({
      color_scheme: 2,
      enter_sends: true,
      emojiset: "twitter",
      default_language: "de",
    });
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([
      { type: "user_settings", op: "update", property: "color_scheme", value: 2 },
      { type: "user_settings", op: "update", property: "default_language", value: "de", language_name: "Deutsch" },
      { type: "user_settings", op: "update", property: "emojiset", value: "twitter" },
      { type: "user_settings", op: "update", property: "enter_sends", value: true },
    ]);
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([]);
  });

  it("stores only differences: going back to the default removes the setting", async () => {
    const me = await org.createUser("back-to-default");
    await org.api(me, "PATCH", "/settings", { enter_sends: true, color_scheme: 3 });
    const cursors = await eventCursors(org, [me.id]);
    const res = await org.api(me, "PATCH", "/settings", { enter_sends: false, color_scheme: 3 });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, me.id)).settings).toEqual({ color_scheme: 3 });
    // color_scheme did not change, so only enter_sends is announced.
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([
      { type: "user_settings", op: "update", property: "enter_sends", value: false },
    ]);
  });

  it("lists unsupported parameters in ignored_parameters_unsupported and still applies the rest", async () => {
    const me = await org.createUser("ignorer");
    const res = await org.api(me, "PATCH", "/settings", { starred_message_counts: false, frobnicate: 1, zebra: "x" });
    expect(res.body).toEqual({ result: "success", msg: "", ignored_parameters_unsupported: ["frobnicate", "zebra"] });
    expect((await storedUser(org, me.id)).settings).toEqual({ starred_message_counts: false });
  });

  it("changes the caller's name and tells every active user", async () => {
    const me = await org.createUser("selfnamer");
    const cursors = await eventCursors(org, [org.users.guest.id]);
    const res = await org.api(me, "PATCH", "/settings", { full_name: "Self Named" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, me.id)).full_name).toBe("Self Named");
    expect(await eventsAfter(org, org.users.guest.id, cursors.get(org.users.guest.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: me.id, full_name: "Self Named" } },
    ]);
  });

  it("refuses an empty name", async () => {
    const me = await org.createUser("noblank");
    const res = await org.api(me, "PATCH", "/settings", { full_name: "  " });
    expect(res.body).toEqual(err("Name must not be empty!"));
    expect((await storedUser(org, me.id)).full_name).toBe("noblank");
  });

  it("stores the time zone on the user and tells everyone with {email, user_id, timezone}", async () => {
    const me = await org.createUser("zoned");
    const cursors = await eventCursors(org, [me.id, org.users.member.id]);
    const res = await org.api(me, "PATCH", "/settings", { timezone: "Europe/Berlin" });
    expect(res.body.result).toBe("success");
    expect((await storedUser(org, me.id)).timezone).toBe("Europe/Berlin");
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { email: me.email, user_id: me.id, timezone: "Europe/Berlin" } },
    ]);
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([
      { type: "user_settings", op: "update", property: "timezone", value: "Europe/Berlin" },
      { type: "realm_user", op: "update", person: { email: me.email, user_id: me.id, timezone: "Europe/Berlin" } },
    ]);
    expect((await org.api(org.users.member, "GET", `/users/${me.id}`)).body.user.timezone).toBe("Europe/Berlin");
  });

  it("announces the new API email when email visibility hides the address", async () => {
    const me = await org.createUser("hider");
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await org.api(me, "PATCH", "/settings", { email_address_visibility: 4 });
    expect(res.body.result).toBe("success");
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: me.id, delivery_email: null } },
      { type: "realm_user", op: "update", person: { user_id: me.id, new_email: `user${me.id}@${new URL(org.url).hostname}` } },
    ]);
  });

  it("tells only the users whose sight of the real email changes, with delivery_email", async () => {
    // Prepare: nobody but the user sees the address.
    const me = await org.createUser("shower");
    await org.api(me, "PATCH", "/settings", { email_address_visibility: 4 });
    const watchers = [me.id, org.users.admin.id, org.users.moderator.id, org.users.member.id];
    const cursors = await eventCursors(org, watchers);
    // Act: administrators may see it.
    const res = await org.api(me, "PATCH", "/settings", { email_address_visibility: 3 });
    // Assess
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, me.id)).settings).toEqual({ email_address_visibility: 3 });
    expect(await eventsAfter(org, org.users.admin.id, cursors.get(org.users.admin.id)!)).toEqual([
      { type: "realm_user", op: "update", person: { user_id: me.id, delivery_email: me.email } },
    ]);
    expect(await eventsAfter(org, org.users.moderator.id, cursors.get(org.users.moderator.id)!)).toEqual([]);
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([]);
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([
      { type: "user_settings", op: "update", property: "email_address_visibility", value: 3 },
    ]);
    const admins = await org.api(org.users.admin, "GET", `/users/${me.id}`);
    expect(admins.body.user.delivery_email).toBe(me.email);
    const members = await org.api(org.users.member, "GET", `/users/${me.id}`);
    expect(members.body.user.delivery_email).toBeUndefined();
  });

  const invalid: [Record<string, unknown>, string][] = [
    [{ color_scheme: 4 }, "Invalid color_scheme"],
    [{ color_scheme: "dark" }, 'Argument "color_scheme" is not valid JSON.'],
    [{ enter_sends: 1 }, "enter_sends is not a boolean"],
    [{ emojiset: "apple" }, "Invalid emojiset"],
    [{ default_language: "xx" }, "Invalid default_language"],
    [{ timezone: "Mars/Olympus" }, "Invalid timezone"],
    [{ timezone: "europe/berlin" }, "Invalid timezone"],
    [{ email_address_visibility: 6 }, "Invalid email_address_visibility"],
    [{ web_home_view: "stream" }, "Invalid web_home_view"],
    [{ demote_inactive_streams: 0 }, "Invalid demote_inactive_streams"],
    [{ desktop_icon_count_display: 5 }, "Invalid desktop_icon_count_display"],
    [{ notification_sound: "boom" }, "Invalid notification sound 'boom'"],
    [{ email_notifications_batching_period_seconds: 0 }, "Invalid email batching period: 0 seconds"],
    [{ web_font_size_px: 1.5 }, "web_font_size_px is not an integer"],
  ];
  invalid.forEach(([params, msg], i) => {
    it(`refuses ${JSON.stringify(params)} with "${msg}" and writes nothing`, async () => {
      const me = await org.createUser(`bad-setting-${i}`);
      // Valid changes ride along: none of them may be written either.
      const res = await org.api(me, "PATCH", "/settings", { full_name: "Changed Name", twenty_four_hour_time: true, ...params });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err(msg));
      const stored = await storedUser(org, me.id);
      expect(stored.settings).toEqual({});
      expect(stored.full_name).not.toBe("Changed Name");
    });
  });

  it("accepts every documented choice of color_scheme", async () => {
    const me = await org.createUser("colors");
    for (const v of [1, 2, 3]) {
      expect((await org.api(me, "PATCH", "/settings", { color_scheme: v })).body.result).toBe("success");
    }
  });

  it("refuses bots: This endpoint does not accept bot requests.", async () => {
    const res = await org.api(org.users.bot, "PATCH", "/settings", { enter_sends: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("This endpoint does not accept bot requests."));
    expect((await storedUser(org, org.users.bot.id)).settings).toEqual({});
  });

  it("succeeds with nothing to change", async () => {
    const res = await org.api(org.users.member2, "PATCH", "/settings", {});
    expect(res.body).toEqual({ result: "success", msg: "" });
  });
});

describe("PATCH /settings: desktop_icon_count_display", () => {
  const client = (user: TestUser) =>
    new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
  const types = ["user_settings", "update_display_settings", "update_global_notifications"];

  it("accepts the fourth choice (None, feature level 227): stored, announced in both forms, in register", async () => {
    // Prepare
    const me = await org.createUser("icon-count");
    const legacy = client(me);
    const modern = client(me);
    await legacy.register({ event_types: types });
    await modern.register({ event_types: types, client_capabilities: { user_settings_object: true } });
    // Act
    const res = await org.api(me, "PATCH", "/settings", { desktop_icon_count_display: 4 });
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedUser(org, me.id)).settings).toEqual({ desktop_icon_count_display: 4 });
    expect(await modern.poll({ dontBlock: true })).toEqual([
      { type: "user_settings", op: "update", property: "desktop_icon_count_display", value: 4, id: 0 },
    ]);
    expect(await legacy.poll({ dontBlock: true })).toEqual([
      { type: "user_settings", op: "update", property: "desktop_icon_count_display", value: 4, id: 0 },
      {
        type: "update_global_notifications",
        user: me.email,
        notification_name: "desktop_icon_count_display",
        setting: 4,
        id: 1,
      },
    ]);
    const reg = await org.api(me, "POST", "/register", { fetch_event_types: JSON.stringify(types) });
    expect(reg.body.user_settings.desktop_icon_count_display).toBe(4);
    expect(reg.body.desktop_icon_count_display).toBe(4);
  });
});

describe("PATCH /settings: password", () => {
  it("changes the password when the old one is right", async () => {
    const me = await org.createUser("pw-changer");
    const res = await org.api(me, "PATCH", "/settings", {
      old_password: `${me.email}-password`,
      new_password: "brand-new-pass",
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const login = await org.api(null, "POST", "/fetch_api_key", { username: me.email, password: "brand-new-pass" });
    expect(login.body.result).toBe("success");
  });

  it("refuses a wrong old password and keeps the old one", async () => {
    const me = await org.createUser("pw-wrong");
    const res = await org.api(me, "PATCH", "/settings", { old_password: "nope", new_password: "brand-new-pass" });
    expect(res.body).toEqual(err("Wrong password!"));
    const login = await org.api(null, "POST", "/fetch_api_key", { username: me.email, password: `${me.email}-password` });
    expect(login.body.result).toBe("success");
  });

  it("refuses a weak new password", async () => {
    const me = await org.createUser("pw-weak");
    const res = await org.api(me, "PATCH", "/settings", { old_password: `${me.email}-password`, new_password: "abc" });
    expect(res.body).toEqual(err("New password is too weak!"));
  });
});
