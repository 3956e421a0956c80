/**
 * Contract test of the invitation endpoints: replays what Zulip's API
 * examples for invitations do (`zerver/openapi/python_examples.py`:
 * `get_invitations`, `send_invitations`, `create_reusable_invitation_link`,
 * `revoke_email_invitation`, `revoke_reusable_invitation_link`,
 * `resend_email_invitation`), in their order, as an administrator, and
 * validates every response, and the main refusals, against Zulip's OpenAPI
 * description (`test/support/openapi.ts`).
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { describeContract, expectConforms as conforms } from "../support/openapi.js";

describeContract("contract: invitations", () => {
  const org = useTestOrg();

  it("Zulip's invitation examples, in order", async () => {
    const admin = org.users.admin;
    // The examples invite to the first three streams the caller is subscribed to.
    const subs = (await org.api(admin, "GET", "/users/me/subscriptions")).body.subscriptions as { stream_id: number }[];
    const streamIds = subs.slice(0, 3).map((s) => s.stream_id);

    // get_invitations
    conforms("GET", "/invites", await org.api(admin, "GET", "/invites"), 200);

    // send_invitations
    const sent = await org.api(admin, "POST", "/invites", {
      invitee_emails: "example@zulip.com, logan@zulip.com",
      invite_expires_in_minutes: 60 * 24 * 10,
      invite_as: 400,
      stream_ids: streamIds,
    });
    conforms("POST", "/invites", sent, 200);

    // create_reusable_invitation_link
    const link = await org.api(admin, "POST", "/invites/multiuse", {
      invite_expires_in_minutes: 60 * 24 * 10,
      invite_as: 400,
      stream_ids: streamIds,
    });
    conforms("POST", "/invites/multiuse", link, 200);

    // revoke_email_invitation
    const email = "delete-invite@zulip.com";
    conforms("POST", "/invites", await org.api(admin, "POST", "/invites", { invitee_emails: email, stream_ids: [] }), 200);
    let invites = conforms("GET", "/invites", await org.api(admin, "GET", "/invites"), 200).body.invites as any[];
    const emailInvite = invites.filter((i) => !i.is_multiuse && i.email === email);
    expect(emailInvite).toHaveLength(1);
    conforms("DELETE", "/invites/{invite_id}", await org.api(admin, "DELETE", `/invites/${emailInvite[0].id}`), 200);

    // revoke_reusable_invitation_link
    const inviteUrl = conforms("POST", "/invites/multiuse", await org.api(admin, "POST", "/invites/multiuse", {}), 200).body.invite_link;
    invites = conforms("GET", "/invites", await org.api(admin, "GET", "/invites"), 200).body.invites as any[];
    const multi = invites.filter((i) => i.is_multiuse && i.link_url === inviteUrl);
    expect(multi).toHaveLength(1);
    conforms("DELETE", "/invites/multiuse/{invite_id}", await org.api(admin, "DELETE", `/invites/multiuse/${multi[0].id}`), 200);

    // resend_email_invitation
    invites = conforms("GET", "/invites", await org.api(admin, "GET", "/invites"), 200).body.invites as any[];
    const emailInvites = invites.filter((i) => !i.is_multiuse);
    expect(emailInvites.length).toBeGreaterThan(0);
    conforms("POST", "/invites/{invite_id}/resend", await org.api(admin, "POST", `/invites/${emailInvites[0].id}/resend`), 200);
  });

  it("the documented refusals", async () => {
    const { admin, member, member2 } = org.users;
    const partial = await org.api(admin, "POST", "/invites", { invitee_emails: `${member2.email}, someone-new@zulip.com`, stream_ids: [] });
    conforms("POST", "/invites", partial, 400);
    expect(partial.body).toMatchObject({ code: "INVITATION_FAILED", sent_invitations: true });
    conforms("POST", "/invites", await org.api(admin, "POST", "/invites", { invitee_emails: "", stream_ids: [] }), 400);
    conforms("POST", "/invites", await org.api(admin, "POST", "/invites", { invitee_emails: "x@zulip.com", stream_ids: [99999999] }), 400);
    conforms("POST", "/invites/multiuse", await org.api(member, "POST", "/invites/multiuse", {}), 400);
    conforms("DELETE", "/invites/{invite_id}", await org.api(admin, "DELETE", "/invites/99999999"), 400);
    conforms("POST", "/invites/{invite_id}/resend", await org.api(admin, "POST", "/invites/99999999/resend"), 400);
    const url = (await org.api(admin, "POST", "/invites/multiuse", {})).body.invite_link;
    const id = ((await org.api(admin, "GET", "/invites")).body.invites as any[]).find((i) => i.link_url === url).id;
    await org.api(admin, "DELETE", `/invites/multiuse/${id}`);
    const again = await org.api(admin, "DELETE", `/invites/multiuse/${id}`);
    conforms("DELETE", "/invites/multiuse/{invite_id}", again, 400);
    expect(again.body.msg).toBe("Invitation has already been revoked");
  });
});
