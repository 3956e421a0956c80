import { describe, expect, it } from "vitest";
import { applyPeopleEvent, emojiGlyph, localTime, peopleFromRegister, profileFieldText, STATUS_PRESETS, withProfileValue } from "./people.js";
import type { ServerEvent, WireUser } from "./types.js";

describe("people state", () => {
  it("reads statuses, muted users and sorted profile fields from register", () => {
    const p = peopleFromRegister({
      user_status: { "11": { status_text: "Out sick", emoji_name: "sick", emoji_code: "1f912", reaction_type: "unicode_emoji" }, "12": { away: true } },
      muted_users: [{ id: 13, timestamp: 5 }],
      custom_profile_fields: [
        { id: 2, name: "Team", type: 1, hint: "", field_data: "", order: 2 },
        { id: 1, name: "Phone", type: 1, hint: "", field_data: "", order: 1 },
      ],
    });
    expect(p.statuses.get(11)).toEqual({ status_text: "Out sick", emoji_name: "sick", emoji_code: "1f912", reaction_type: "unicode_emoji" });
    expect(p.statuses.has(12)).toBe(false);
    expect([...p.muted.keys()]).toEqual([13]);
    expect(p.profileFields.map((f) => f.name)).toEqual(["Phone", "Team"]);
  });

  it("applies user_status events part by part, clearing with empty strings", () => {
    let p = peopleFromRegister({});
    const ev = (over: Record<string, unknown>) => ({ id: 1, type: "user_status", user_id: 11, ...over }) as ServerEvent;
    p = applyPeopleEvent(p, ev({ status_text: "Commuting", emoji_name: "bus", emoji_code: "1f68c", reaction_type: "unicode_emoji" }));
    expect(p.statuses.get(11)).toMatchObject({ status_text: "Commuting", emoji_name: "bus" });
    p = applyPeopleEvent(p, ev({ emoji_name: "", emoji_code: "", reaction_type: "unicode_emoji" }));
    expect(p.statuses.get(11)).toEqual({ status_text: "Commuting", emoji_name: "", emoji_code: "", reaction_type: "" });
    p = applyPeopleEvent(p, ev({ status_text: "" }));
    expect(p.statuses.has(11)).toBe(false);
  });

  it("replaces the muted users and the fields from their events", () => {
    let p = peopleFromRegister({ muted_users: [{ id: 13, timestamp: 5 }] });
    p = applyPeopleEvent(p, { id: 2, type: "muted_users", muted_users: [{ id: 14, timestamp: 6 }] } as ServerEvent);
    expect([...p.muted.keys()]).toEqual([14]);
    p = applyPeopleEvent(p, { id: 3, type: "custom_profile_fields", fields: [{ id: 4, name: "Desk", type: 1, hint: "", field_data: "", order: 0, required: false }] } as ServerEvent);
    expect(p.profileFields.map((f) => f.id)).toEqual([4]);
  });

  it("sets and removes a user's profile value", () => {
    const user = { user_id: 11, profile_data: { "1": { value: "x" } } } as unknown as WireUser;
    expect(withProfileValue(user, { id: 2, value: "Blue", rendered_value: "<p>Blue</p>" }).profile_data).toEqual({ "1": { value: "x" }, "2": { value: "Blue", rendered_value: "<p>Blue</p>" } });
    expect(withProfileValue(user, { id: 1, value: null }).profile_data).toEqual({});
  });
});

describe("showing people", () => {
  it("offers Zulip's five presets, each with an emoji", () => {
    expect(STATUS_PRESETS.map((p) => p.status_text)).toEqual(["In a meeting", "Commuting", "Out sick", "Vacationing", "Working remotely"]);
    expect(STATUS_PRESETS.map((p) => emojiGlyph({ ...p, reaction_type: "unicode_emoji" }))).toEqual(["📆", "🚌", "🤒", "🌴", "🏠"]);
    expect(emojiGlyph({ emoji_name: "party", emoji_code: "7", reaction_type: "realm_emoji" })).toBe(":party:");
  });

  it("gives the local time in the person's time zone", () => {
    const noonUtc = Date.UTC(2026, 0, 15, 12, 5);
    expect(localTime("Asia/Kolkata", noonUtc, false)).toBe("5:35 PM");
    expect(localTime("America/New_York", noonUtc, true)).toBe("07:05");
    expect(localTime("", noonUtc, false)).toBeUndefined();
    expect(localTime("Not/AZone", noonUtc, false)).toBeUndefined();
  });

  it("reads options and people fields", () => {
    const select = { id: 1, name: "Team", type: 3, hint: "", order: 0, required: false, field_data: JSON.stringify({ "0": { text: "Ops", order: "1" }, "1": { text: "Dev", order: "2" } }) };
    expect(profileFieldText(select, "1", () => undefined)).toBe("Dev");
    const users = { id: 2, name: "Manager", type: 6, hint: "", order: 1, required: false, field_data: "" };
    expect(profileFieldText(users, "[11,12]", (id) => (id === 11 ? "Iago" : undefined))).toBe("Iago, User 12");
    expect(profileFieldText(users, "", () => undefined)).toBeUndefined();
  });
});
