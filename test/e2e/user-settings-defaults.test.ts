import { describe, expect, it } from "vitest";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { getRealm } from "../../shared/data/realms.js";
import { useTestOrg } from "../support/local-stack.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";
import { queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const storedDefaults = async () => (await getRealm(org.stack.deps, org.realm.id))!.user_settings_defaults;
const patch = (params: Record<string, unknown>, who = org.users.admin) =>
  org.api(who, "PATCH", "/realm/user_settings_defaults", params);

describe("PATCH /realm/user_settings_defaults", () => {
  it.each(["moderator", "member", "guest", "bot"] as const)("refuses a %s", async (who) => {
    const res = await patch({ enter_sends: true }, org.users[who]);
    expect(res.body).toEqual(err("Must be an organization administrator"));
    expect(await storedDefaults()).toEqual({});
  });

  it("stores changed defaults, sends one event each to every active user, and register shows them", async () => {
    const watcher = queueClient(org, org.users.guest);
    await watcher.register({ event_types: ["realm_user_settings_defaults"] });
    const cursors = await eventCursors(org, [org.users.bot.id]);
    const res = await patch({ color_scheme: 2, enter_sends: true, emojiset: "twitter", twenty_four_hour_time: false });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await storedDefaults()).toEqual({ color_scheme: 2, enter_sends: true, emojiset: "twitter" });
    const expected = [
      { type: "realm_user_settings_defaults", op: "update", property: "twenty_four_hour_time", value: false },
      { type: "realm_user_settings_defaults", op: "update", property: "color_scheme", value: 2 },
      { type: "realm_user_settings_defaults", op: "update", property: "emojiset", value: "twitter" },
      { type: "realm_user_settings_defaults", op: "update", property: "enter_sends", value: true },
    ].filter((e) => e.property !== "twenty_four_hour_time"); // false is already the default: unchanged, not announced
    expect(await eventsAfter(org, org.users.bot.id, cursors.get(org.users.bot.id)!)).toEqual(expected);
    const seen: Record<string, any>[] = [];
    while (seen.length < expected.length) seen.push(...(await watcher.poll()).filter((e) => e.type !== "heartbeat"));
    expect(seen.map(({ id: _id, ...e }) => e)).toEqual(expected);
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm_user_settings_defaults"] });
    expect(reg.body.realm_user_settings_defaults).toMatchObject({ color_scheme: 2, enter_sends: true, emojiset: "twitter", dense_mode: true });
    expect(reg.body.realm_user_settings_defaults).not.toHaveProperty("timezone");
  });

  it("gives new users the defaults, and leaves existing users' settings alone", async () => {
    const before = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["user_settings"] });
    expect(before.body.user_settings).toMatchObject({ color_scheme: 1, enter_sends: false, emojiset: "google" });
    // Created as the API and the CLI do, with the organization as stored now.
    const record = await doCreateUser(org.stack.deps, (await getRealm(org.stack.deps, org.realm.id))!, {
      email: "newcomer@test.example",
      full_name: "Newcomer",
      password: "newcomer-password-123",
    });
    const newcomer = { id: record.user_id, email: record.delivery_email, apiKey: record.api_key, fullName: record.full_name, role: record.role };
    expect((await storedUser(org, newcomer.id)).settings).toEqual({ color_scheme: 2, enter_sends: true, emojiset: "twitter" });
    const theirs = await org.api(newcomer, "POST", "/register", { fetch_event_types: ["user_settings"] });
    expect(theirs.body.user_settings).toMatchObject({ color_scheme: 2, enter_sends: true, emojiset: "twitter" });

    // Changing the defaults again changes neither the newcomer nor the existing member.
    await patch({ color_scheme: 3, enter_sends: false });
    expect(await storedDefaults()).toEqual({ color_scheme: 3, emojiset: "twitter" });
    const after = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["user_settings"] });
    expect(after.body.user_settings).toMatchObject({ color_scheme: 1, enter_sends: false, emojiset: "google" });
    const newcomerAfter = await org.api(newcomer, "POST", "/register", { fetch_event_types: ["user_settings"] });
    expect(newcomerAfter.body.user_settings).toMatchObject({ color_scheme: 2, enter_sends: true, emojiset: "twitter" });
    // The newcomer going back to the server default keeps it whatever the organization's defaults say.
    await org.api(newcomer, "PATCH", "/settings", { color_scheme: 1 });
    const chosen = await org.api(newcomer, "POST", "/register", { fetch_event_types: ["user_settings"] });
    expect(chosen.body.user_settings.color_scheme).toBe(1);
  });

  it("accepts the spec's older parameter names", async () => {
    const res = await patch({ default_view: "all_messages", escape_navigates_to_default_view: false, realm_name_in_notifications: true });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await storedDefaults()).toMatchObject({
      web_home_view: "all_messages",
      web_escape_navigates_to_home_view: false,
      realm_name_in_email_notifications_policy: 2,
    });
  });

  it("lists parameters it does not take, and answers {} with no events when nothing changes", async () => {
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await patch({ color_scheme: 3, timezone: "UTC", enable_login_emails: false, default_language: "de", frobnicate: 1 });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      ignored_parameters_unsupported: ["default_language", "enable_login_emails", "frobnicate", "timezone"],
    });
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([]);
  });

  it.each([
    [{ color_scheme: 7 }, "Invalid color_scheme"],
    [{ emojiset: "comic" }, "Invalid emojiset"],
    [{ web_home_view: "everything" }, "Invalid web_home_view"],
    [{ demote_inactive_streams: 0 }, "Invalid demote_inactive_streams"],
    [{ notification_sound: "gong" }, "Invalid notification sound 'gong'"],
    [{ email_notifications_batching_period_seconds: 0 }, "Invalid email batching period: 0 seconds"],
    [{ enter_sends: "yes" }, 'Argument "enter_sends" is not valid JSON.'],
    [{ dense_mode: 3 }, "dense_mode is not a boolean"],
    [{ email_address_visibility: 9 }, "Invalid email_address_visibility"],
  ])("refuses %j with %j and changes nothing", async (params, msg) => {
    const before = await storedDefaults();
    const res = await patch({ enter_sends: true, ...params });
    expect(res.body).toEqual(err(msg));
    expect(await storedDefaults()).toEqual(before);
  });
});
