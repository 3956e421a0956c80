import { describe, expect, it } from "vitest";
import {
  checkProfileFieldDefinition,
  checkProfileFieldValue,
  isProfileUrl,
  ProfileFieldType,
  type PersonPickerCandidate,
} from "./custom-profile-fields.js";

const field = (type: number, field_data = "") => ({ name: "Label", hint: "", type, field_data, display_in_profile_summary: false });
const noUsers = new Map<number, PersonPickerCandidate>();

describe("checkProfileFieldValue", () => {
  it("accepts real calendar dates only, in YYYY-MM-DD", () => {
    expect(checkProfileFieldValue(field(ProfileFieldType.DATE), "2024-02-29", noUsers)).toBe("2024-02-29");
    for (const bad of ["2023-02-29", "2024-13-01", "2024-1-01", "20240101", "2024-01-01T00:00"]) {
      expect(() => checkProfileFieldValue(field(ProfileFieldType.DATE), bad, noUsers)).toThrow("Label is not a date");
    }
  });

  it("counts characters, not UTF-16 units, against the 50-character limit", () => {
    const emoji = "😀".repeat(50);
    expect(checkProfileFieldValue(field(ProfileFieldType.SHORT_TEXT), emoji, noUsers)).toBe(emoji);
    expect(() => checkProfileFieldValue(field(ProfileFieldType.PRONOUNS), `${emoji}x`, noUsers)).toThrow(
      "Label is too long (limit: 50 characters)",
    );
  });

  it("stores a person picker's IDs as compact JSON after checking each user", () => {
    const users = new Map<number, PersonPickerCandidate>([
      [1, { user_id: 1, is_active: true, is_bot: false }],
      [2, { user_id: 2, is_active: false, is_bot: false }],
    ]);
    expect(checkProfileFieldValue(field(ProfileFieldType.USER), [1], users)).toBe("[1]");
    expect(() => checkProfileFieldValue(field(ProfileFieldType.USER), [1, 2], users)).toThrow("User with ID 2 is deactivated");
    expect(() => checkProfileFieldValue(field(ProfileFieldType.USER), [3], users)).toThrow("Invalid user ID: 3");
  });

  it("accepts only the keys of a choice field's choices", () => {
    const choice = field(ProfileFieldType.CHOICE, JSON.stringify({ a: { text: "A", order: "1" } }));
    expect(checkProfileFieldValue(choice, "a", noUsers)).toBe("a");
    expect(() => checkProfileFieldValue(choice, "toString", noUsers)).toThrow("'toString' is not a valid choice for 'Label'.");
  });
});

describe("isProfileUrl", () => {
  it("takes absolute web and ftp URLs with a host", () => {
    expect(isProfileUrl("https://example.com/a?b=c")).toBe(true);
    expect(isProfileUrl("ftp://files.example.com/")).toBe(true);
    for (const bad of ["example.com", "javascript:alert(1)", "mailto:a@b.c", "https://", "http://exa mple.com"]) {
      expect(isProfileUrl(bad)).toBe(false);
    }
  });
});

describe("checkProfileFieldDefinition", () => {
  it("checks field_data before the label, as Zulip does", () => {
    expect(() => checkProfileFieldDefinition({ name: "", hint: "", type: 3, display_in_profile_summary: false }, {})).toThrow(
      "Field must have at least one choice.",
    );
  });

  it("needs no label for a default external account", () => {
    expect(() =>
      checkProfileFieldDefinition({ name: "", hint: "", type: 7, display_in_profile_summary: true }, { subtype: "github" }),
    ).not.toThrow();
  });

  it("bounds field_data's size", () => {
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, { text: `choice ${i}`, order: String(i) }]));
    expect(() => checkProfileFieldDefinition({ name: "Big", hint: "", type: 3, display_in_profile_summary: false }, many)).toThrow(
      "field_data is too long (limit: 3000 characters)",
    );
  });
});
