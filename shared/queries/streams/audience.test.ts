import { describe, expect, it } from "vitest";
import { Role } from "../../domain/roles.js";
import { streamAudience, streamCreationAudience } from "./audience.js";
import { summarizeTopics } from "./topics.js";

const users = [
  { user_id: 1, role: Role.OWNER, is_bot: false },
  { user_id: 2, role: Role.ADMINISTRATOR, is_bot: false },
  { user_id: 3, role: Role.MEMBER, is_bot: false },
  { user_id: 4, role: Role.MEMBER, is_bot: false },
  { user_id: 5, role: Role.GUEST, is_bot: false },
  { user_id: 6, role: Role.GUEST, is_bot: false },
];

describe("streamAudience", () => {
  it("public: every non-guest plus subscribed guests", () => {
    expect(streamAudience({ invite_only: false, is_web_public: false }, users, [4, 5])).toEqual([1, 2, 3, 4, 5]);
  });

  it("web-public: everyone", () => {
    expect(streamAudience({ invite_only: false, is_web_public: true }, users, [])).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("private: subscribers plus administrators", () => {
    expect(streamAudience({ invite_only: true, is_web_public: false }, users, [4, 6])).toEqual([1, 2, 4, 6]);
  });

  it("announces new private streams to administrators only", () => {
    expect(streamCreationAudience({ invite_only: true, is_web_public: false }, users)).toEqual([1, 2]);
  });
});

describe("summarizeTopics", () => {
  it("groups case-insensitively under the newest spelling, newest topic first", () => {
    expect(
      summarizeTopics([
        { id: 3, topic: "Lunch" },
        { id: 1, topic: "lunch" },
        { id: 2, topic: "work" },
      ]),
    ).toEqual([
      { name: "Lunch", max_id: 3 },
      { name: "work", max_id: 2 },
    ]);
  });
});
