import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

/** `GET /json/accounts/signup_settings` as a signed-out browser calls it: no cookie, no credentials. */
async function signupSettings() {
  const res = await fetch(`${org.url}/json/accounts/signup_settings`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("GET /json/accounts/signup_settings", () => {
  it("tells a signed-out page the organization's name, that joining takes an invitation, and the password rules", async () => {
    // Act
    const res = await signupSettings();
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      realm_name: org.realm.name,
      realm_invite_required: true,
      password_min_length: 6,
      password_min_guesses: 10_000,
    });
  });

  it("follows the owner's invite_required setting", async () => {
    // Prepare
    const patch = await org.api(org.users.owner, "PATCH", "/realm", { invite_required: false });
    expect(patch.status).toBe(200);
    // Act
    const res = await signupSettings();
    // Assess
    expect(res.body).toMatchObject({ realm_invite_required: false });
  });
});
