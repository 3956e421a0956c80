import { describe, expect, it } from "vitest";
import { applyEvent, EVENT_TYPES, stateFromRegister } from "./store.js";
import type { ServerEvent } from "./types.js";
import { ME } from "./test-fixtures.js";

const emoji = (id: string, name: string, deactivated = false) => ({
  id,
  name,
  source_url: `/user_avatars/2/emoji/images/${id}.png`,
  still_url: null,
  deactivated,
  author_id: ME,
});
const group = (id: number, name: string, members: number[]) => ({
  id,
  name,
  description: `${name} people`,
  members,
  direct_subgroup_ids: [],
  is_system_group: false,
  can_manage_group: 1,
  can_mention_group: 2,
});

function registered() {
  return stateFromRegister({
    queue_id: "q",
    last_event_id: 0,
    user_id: ME,
    realm_emoji: { "1": emoji("1", "octo_party") },
    realm_user_groups: [group(5, "support", [ME]), group(6, "design", [])],
  });
}

describe("custom emoji in the client state", () => {
  it("comes from register's realm_emoji and is replaced by each realm_emoji event", () => {
    // Prepare
    const state = registered();
    expect(EVENT_TYPES).toContain("realm_emoji");
    expect(state.realmEmoji.get("1")?.name).toBe("octo_party");

    // Act
    const next = applyEvent(state, { id: 1, type: "realm_emoji", op: "update", realm_emoji: { "1": emoji("1", "octo_party", true), "2": emoji("2", "ship") } } as ServerEvent, 0);

    // Assess
    expect([...next.realmEmoji.values()].map((e) => [e.name, e.deactivated])).toEqual([
      ["octo_party", true],
      ["ship", false],
    ]);
    expect(state.realmEmoji.size).toBe(1);
  });
});

describe("user groups in the client state", () => {
  it("follow user_group events: add, update, members, subgroups, remove", () => {
    // Prepare
    let state = registered();
    const events = [
      { type: "user_group", op: "add", group: group(7, "ops", [11]) },
      { type: "user_group", op: "update", group_id: 6, data: { name: "designers", description: "Design" } },
      { type: "user_group", op: "add_members", group_id: 6, user_ids: [11, 12] },
      { type: "user_group", op: "remove_members", group_id: 6, user_ids: [11] },
      { type: "user_group", op: "add_subgroups", group_id: 5, direct_subgroup_ids: [7] },
      { type: "user_group", op: "remove", group_id: 7 },
    ];

    // Act
    events.forEach((e, i) => (state = applyEvent(state, { id: i + 1, ...e } as ServerEvent, 0)));

    // Assess
    expect(EVENT_TYPES).toContain("user_group");
    expect([...state.userGroups.keys()]).toEqual([5, 6]);
    expect(state.userGroups.get(6)).toMatchObject({ name: "designers", description: "Design", members: [12] });
    expect(state.userGroups.get(5)?.direct_subgroup_ids).toEqual([7]);
  });
});
