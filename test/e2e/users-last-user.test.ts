import { describe, expect, it } from "vitest";
import { ensureNotificationBot } from "../../shared/actions/users/notification-bot.js";
import { useTestOrg } from "../support/local-stack.js";
import { storedUser } from "./users-support.js";

// An organization of its own: the test deactivates everyone but the owner.
const org = useTestOrg();

describe("DELETE /users/me by the last active user", () => {
  it("is refused with is_last_owner false", async () => {
    // Prepare: the owner deactivates everyone else (the seeded bot goes with its owner).
    for (const who of ["admin", "moderator", "member", "member2", "guest"] as const) {
      const res = await org.api(org.users.owner, "DELETE", `/users/${org.users[who].id}`);
      expect(res.body.result).toBe("success");
    }
    expect((await storedUser(org, org.users.bot.id)).is_active).toBe(false);
    // The Notification Bot (a system bot, Zulip keeps it in another realm) is nobody to hand over to.
    await ensureNotificationBot(org.stack.deps, org.realm);
    // Act
    const res = await org.api(org.users.owner, "DELETE", "/users/me");
    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Cannot deactivate the only user",
      code: "CANNOT_DEACTIVATE_LAST_USER",
      entity: "user",
      is_last_owner: false,
    });
    expect((await storedUser(org, org.users.owner.id)).is_active).toBe(true);
  });
});
