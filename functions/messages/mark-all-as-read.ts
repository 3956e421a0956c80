import type { Endpoint } from "../../shared/http/context.js";
import { doMarkAllAsRead } from "../../shared/actions/messages/mark-as-read.js";

/** `POST /mark_all_as_read` (https://zulip.com/api/mark-all-as-read): answers `complete`. */
export const markAllAsRead: Endpoint = async (ctx) => doMarkAllAsRead(ctx.deps, ctx.realm, ctx.user);
