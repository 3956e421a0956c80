import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { sendFiles } from "./image-upload-helpers.js";

/**
 * The file size limits register reports are the ones every upload route
 * enforces: `MAX_FILE_UPLOAD_SIZE_MIB` (a Lambda request cannot carry
 * Zulip's 5 MiB image limits), refused with Zulip's wording and our number.
 */
const org = useTestOrg();

describe("file size limits", () => {
  it("register reports one limit for files, avatars, icons and logos; each route refuses one byte more with it", async () => {
    const { admin } = org.users;
    const limit = org.stack.deps.config.MAX_FILE_UPLOAD_SIZE_MIB;
    const reg = (await org.api(admin, "POST", "/register", { fetch_event_types: JSON.stringify(["realm"]) })).body;
    expect({
      files: reg.max_file_upload_size_mib,
      avatars: reg.max_avatar_file_size_mib,
      icons: reg.max_icon_file_size_mib,
      logos: reg.max_logo_file_size_mib,
    }).toEqual({ files: limit, avatars: limit, icons: limit, logos: limit });

    const tooBig = [{ name: "big.png", type: "image/png", bytes: new Uint8Array(limit * 1024 * 1024 + 1).fill(7) }];
    const msg = `Uploaded file is larger than the allowed limit of ${limit} MiB`;
    const routes: [string, string, Record<string, string>][] = [
      ["POST", "/user_uploads", {}],
      ["POST", "/users/me/avatar", {}],
      ["POST", "/realm/icon", {}],
      ["POST", "/realm/logo", { night: "false" }],
      ["POST", "/realm/emoji/too_big", {}],
      ["POST", "/bots", { full_name: "Big Bot", short_name: "bigpicture" }],
      ["PATCH", `/bots/${org.users.bot.id}`, {}],
    ];
    for (const [method, path, fields] of routes) {
      const res = await sendFiles(org, admin, method, path, tooBig, fields);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { result: "error", msg, code: "BAD_REQUEST" } });
    }
  });
});
