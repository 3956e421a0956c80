import type { Endpoint } from "../../shared/http/context.js";
import { markAllAsRead as markAll } from "../../shared/actions/messages/mark-as-read.js";

/** `POST /mark_all_as_read` (spec "Mark as read"; OpenAPI `mark-all-as-read`): answers `complete`. */
export const markAllAsRead: Endpoint = async (ctx) => markAll(ctx.deps, ctx.realm, ctx.user);
