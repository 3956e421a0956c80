import { z } from "zod";
import { doInviteUsers } from "../../shared/actions/invites/invite-users.js";
import { parseInviteeEmails } from "../../shared/domain/invites.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { inviteOptionSpecs, streamIdList } from "./invite-params.js";

/** Longest `invitee_emails` accepted, in characters (a bound: about 400 full-length addresses). */
const MAX_INVITEE_EMAILS_LENGTH = 100_000;

/**
 * `POST /invites` (https://zulip.com/api/send-invites): invites the
 * addresses of `invitee_emails` (separated by commas or newlines) by email.
 */
export const sendInvites: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    invitee_emails: param.string(z.string().max(MAX_INVITEE_EMAILS_LENGTH)),
    stream_ids: param.json(streamIdList),
    ...inviteOptionSpecs,
  });
  const emails = p.invitee_emails === "" ? [] : parseInviteeEmails(p.invitee_emails);
  await doInviteUsers(ctx.deps, ctx.realm, ctx.user, emails, p);
  return {};
};
