import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { pngBytes, sendFiles } from "./image-upload-helpers.js";
import { getRoot } from "./uploads-helpers.js";

/**
 * The image redirects: `GET /avatar/{email_or_id}` and `/medium` at the
 * site root, `GET /api/v1/realm/icon` and `/realm/logo` (Zulip's `avatar`,
 * `avatar_medium`, `get_icon_backend`, `get_logo_backend`).
 */
const org = useTestOrg();

const gravatar = (key: string) => `https://secure.gravatar.com/avatar/${createHash("md5").update(key.trim().toLowerCase()).digest("hex")}?d=identicon`;
const absolute = (url: string) => (url.startsWith("/") ? `${org.url}${url}` : url);

async function location(user: Parameters<typeof getRoot>[1], path: string): Promise<string> {
  const res = await getRoot(org, user, path);
  expect(res.status, await res.clone().text()).toBe(302);
  return res.headers.get("location")!;
}

describe("GET /avatar/{email_or_id}", () => {
  it("redirects to the user's avatar by ID or API email, with the query string appended; medium is 500 pixels", async () => {
    const { member, member2 } = org.users;
    const target = (await org.api(member, "GET", `/users/${member2.id}`, { client_gravatar: false })).body.user;
    expect(await location(member, `/avatar/${member2.id}`)).toBe(absolute(target.avatar_url));
    expect(await location(member, `/avatar/${encodeURIComponent(target.email)}`)).toBe(absolute(target.avatar_url));
    expect(await location(member, `/avatar/${member2.id}?foo=bar`)).toBe(`${absolute(target.avatar_url)}&foo=bar`);
    expect(await location(member, `/avatar/${member2.id}/medium`)).toBe(
      `${gravatar(target.email)}&s=500&version=${target.avatar_version}`,
    );
  });

  it("follows an uploaded avatar (both sizes); a guest and a bot may ask too", async () => {
    const { member2, guest, bot } = org.users;
    const up = await sendFiles(org, member2, "POST", "/users/me/avatar", [{ name: "a.png", type: "image/png", bytes: await pngBytes(40, 40) }]);
    expect(up.status).toBe(200);
    const small: string = up.body.avatar_url;
    expect(small).toMatch(/^\/user_avatars\/\d+\/avatars\/\d+-\d+\.png\?version=\d+$/);
    expect(await location(guest, `/avatar/${member2.id}`)).toBe(`${org.url}${small}`);
    expect(await location(bot, `/avatar/${member2.id}/medium`)).toBe(`${org.url}${small.replace(".png?", "-medium.png?")}`);
  });

  it("answers the gravatar of the name itself (version 1) when it finds no user", async () => {
    const { member } = org.users;
    expect(await location(member, "/avatar/nobody@example.com")).toBe(`${gravatar("nobody@example.com")}&version=1`);
    expect(await location(member, "/avatar/999999999/medium")).toBe(`${gravatar("999999999")}&s=500&version=1`);
  });

  it("refuses a request without credentials (401) and bad credentials", async () => {
    const anonymous = await getRoot(org, null, `/avatar/${org.users.member.id}`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ result: "error", code: "UNAUTHORIZED" });
    const wrong = await getRoot(org, { ...org.users.member, apiKey: "x".repeat(32) }, `/avatar/${org.users.member.id}/medium`);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ result: "error", msg: "Invalid API key" });
  });
});

describe("GET /realm/icon and /realm/logo", () => {
  it("redirect to the organization's icon and day or night logo, the query string appended", async () => {
    const { guest } = org.users;
    const reg = (await org.api(guest, "POST", "/register", { fetch_event_types: JSON.stringify(["realm"]) })).body;
    expect(await location(guest, "/api/v1/realm/icon")).toBe(absolute(reg.realm_icon_url));
    expect(await location(guest, "/api/v1/realm/icon?x=1")).toBe(`${absolute(reg.realm_icon_url)}${reg.realm_icon_url.includes("?") ? "&" : "?"}x=1`);
    expect(await location(guest, "/api/v1/realm/logo?night=false")).toBe(`${absolute(reg.realm_logo_url)}&night=false`);
    expect(await location(guest, "/api/v1/realm/logo?night=true")).toBe(`${absolute(reg.realm_night_logo_url)}&night=true`);
  });

  it("refuses a logo request without a JSON boolean night, and a request without credentials", async () => {
    const { member } = org.users;
    const missing = await org.api(member, "GET", "/realm/logo");
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: "error", msg: "Missing 'night' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "night" });
    const bad = await org.api(member, "GET", "/realm/logo", { night: "maybe" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: "error", msg: "Argument \"night\" is not valid JSON." });
    const anonymous = await getRoot(org, null, "/api/v1/realm/icon");
    expect(anonymous.status).toBe(401);
  });
});
