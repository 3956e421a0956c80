import type { FilesDeps } from "../../shared/deps.js";
import type { PublicEndpoint } from "../../shared/http/context.js";
import { RedirectResult } from "../../shared/http/response.js";
import { userAvatarsLocation } from "../../shared/queries/user-avatars.js";

/**
 * `GET /user_avatars/...`: avatars, custom emoji and organization images
 * (Zulip serves them without credentials from its avatar bucket). Answers a
 * redirect to a presigned URL of the object; the path below `/user_avatars/`
 * is the object's key.
 */
export const getUserAvatarsFile: PublicEndpoint<FilesDeps> = async (ctx) => {
  const key = ctx.route.path
    .replace(/^\/user_avatars\//, "")
    .replace(/\{(\w+)\}/g, (_m, name: string) => ctx.pathParams[name] ?? "");
  const { url, maxAgeSeconds } = await userAvatarsLocation(ctx.deps, key);
  return new RedirectResult(url, maxAgeSeconds);
};
