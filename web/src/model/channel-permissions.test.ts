import { describe, expect, it } from "vitest";
import {
  createRefusal,
  editRefusal,
  inGroupSetting,
  isFullMember,
  removeSubscribersRefusal,
  subscribeOthersRefusal,
  type Reader,
  type UserGroup,
} from "./channel-permissions.js";

const sys = (id: number, name: string, sub: number[] = []): UserGroup => ({ id, name, members: [], direct_subgroup_ids: sub, is_system_group: true });
const GROUPS: UserGroup[] = [
  sys(1, "role:owners"),
  sys(2, "role:administrators", [1]),
  sys(3, "role:moderators", [2]),
  sys(4, "role:fullmembers", [3]),
  sys(5, "role:members", [4]),
  sys(6, "role:everyone", [5]),
  sys(7, "role:nobody"),
  { id: 20, name: "designers", members: [42], direct_subgroup_ids: [21], is_system_group: false },
  { id: 21, name: "junior designers", members: [43], direct_subgroup_ids: [], is_system_group: false },
];
const member: Reader = { userId: 40, role: 400, fullMember: true };
const admin: Reader = { userId: 41, role: 200, fullMember: true };
const guest: Reader = { userId: 44, role: 600, fullMember: false };

describe("group settings", () => {
  it("decides system groups by role", () => {
    expect(inGroupSetting(5, member, GROUPS)).toBe(true);
    expect(inGroupSetting(2, member, GROUPS)).toBe(false);
    expect(inGroupSetting(2, admin, GROUPS)).toBe(true);
    expect(inGroupSetting(5, guest, GROUPS)).toBe(false);
    expect(inGroupSetting(7, admin, GROUPS)).toBe(false);
    expect(inGroupSetting(4, { ...member, fullMember: false }, GROUPS)).toBe(false);
  });

  it("decides other groups by membership through subgroups, and anonymous groups too", () => {
    expect(inGroupSetting(20, { ...member, userId: 43 }, GROUPS)).toBe(true);
    expect(inGroupSetting(20, member, GROUPS)).toBe(false);
    expect(inGroupSetting({ direct_members: [40], direct_subgroups: [] }, member, GROUPS)).toBe(true);
    expect(inGroupSetting({ direct_members: [], direct_subgroups: [2] }, admin, GROUPS)).toBe(true);
    expect(inGroupSetting(999, admin, GROUPS)).toBe(false);
  });
});

describe("creating streams", () => {
  const realm = { realm_can_create_public_channel_group: 2, realm_can_create_private_channel_group: 5, realm_can_create_web_public_channel_group: 1 };
  it("says who may when the reader may not", () => {
    expect(createRefusal("public", member, realm, GROUPS)).toBe("Only administrators can create public channels in this organization.");
    expect(createRefusal("private-shared", member, realm, GROUPS)).toBeNull();
    expect(createRefusal("public", admin, realm, GROUPS)).toBeNull();
    expect(createRefusal("private-shared", guest, realm, GROUPS)).toBe("Guests cannot create channels.");
  });
  it("offers web-public only where spectators are allowed", () => {
    expect(createRefusal("web-public", { ...admin, role: 100 }, realm, GROUPS)).toBe("Web-public channels are not enabled in this organization.");
    expect(createRefusal("web-public", { ...admin, role: 100 }, { ...realm, realm_enable_spectator_access: true }, GROUPS)).toBeNull();
    expect(createRefusal("web-public", admin, { ...realm, realm_enable_spectator_access: true }, GROUPS)).toBe(
      "Only owners can create web-public channels in this organization.",
    );
  });
});

describe("managing a stream", () => {
  it("lets organization and channel administrators edit and remove subscribers", () => {
    expect(editRefusal(admin, undefined)).toBeNull();
    expect(editRefusal(member, { role: 20 })).toBeNull();
    expect(editRefusal(member, { role: 50 })).toMatch(/^Only organization administrators and channel administrators/);
    expect(removeSubscribersRefusal(member, undefined)).toMatch(/unsubscribe other people/);
  });
  it("follows the invite policy for adding people", () => {
    expect(subscribeOthersRefusal(member, { realm_invite_to_stream_policy: 1 })).toBeNull();
    expect(subscribeOthersRefusal(member, { realm_invite_to_stream_policy: 2 })).toBe("Only administrators can add other people to channels in this organization.");
    expect(subscribeOthersRefusal(guest, {})).not.toBeNull();
  });
  it("counts members in the waiting period as new", () => {
    const now = Date.parse("2026-01-10T00:00:00Z");
    expect(isFullMember(400, "2026-01-08T00:00:00+00:00", { realm_waiting_period_threshold: 3 }, now)).toBe(false);
    expect(isFullMember(400, "2026-01-01T00:00:00+00:00", { realm_waiting_period_threshold: 3 }, now)).toBe(true);
    expect(isFullMember(400, "2026-01-09T00:00:00+00:00", {}, now)).toBe(true);
    expect(isFullMember(200, undefined, { realm_waiting_period_threshold: 3 }, now)).toBe(true);
    expect(isFullMember(600, undefined, {}, now)).toBe(false);
  });
});
