/**
 * The web app's signed-out account calls, all below `/json` without a
 * session (the server's web-only routes): sign-up from a link, sign-up and
 * password-reset requests by email, the reset itself, and the confirmation
 * of a new email address. Refusals come back as {@link ApiError}s with
 * Zulip's `msg` and `code` (`CONFIRMATION_EXPIRED`, `CONFIRMATION_USED`,
 * `CONFIRMATION_NOT_FOUND` for a link that cannot be used).
 */
import type { ApiClient } from "./client.js";

/** What `GET /json/signup/{key}` tells about a sign-up link. */
export interface SignupLink {
  /** `invitation` (by email), `multiuse_invite` (a reusable link) or `user_registration` (a mail-confirmed sign-up). */
  kind: "invitation" | "multiuse_invite" | "user_registration";
  realm_name: string;
  realm_url: string;
  /** The invited (or confirmed) address; null for a reusable link, where the person gives theirs. */
  email: string | null;
  /** The role the account gets (Zulip's role numbers: 100 owner … 600 guest). */
  invited_as: number;
  /** The streams the account is subscribed to. */
  streams: string[];
}

/** The organization's facts the signed-out pages need (`GET /json/accounts/signup_settings`). */
export interface SignupSettings {
  realm_name: string | null;
  /** Whether joining takes an invitation; when false the sign-in page links to the sign-up page. */
  realm_invite_required: boolean;
  password_min_length: number;
  password_min_guesses: number;
}

/** The error codes of a sign-up, reset or email-change link that cannot be used. */
export const LINK_PROBLEM_CODES = ["CONFIRMATION_EXPIRED", "CONFIRMATION_USED", "CONFIRMATION_NOT_FOUND"] as const;
export type LinkProblemCode = (typeof LINK_PROBLEM_CODES)[number];

const keyPath = (key: string) => encodeURIComponent(key);

/** `GET /json/accounts/signup_settings`. */
export function getSignupSettings(api: ApiClient): Promise<SignupSettings> {
  return api.call<SignupSettings>("GET", "/accounts/signup_settings");
}

/** `GET /json/signup/{key}`: the link's organization, address, role and streams. */
export function getSignupLink(api: ApiClient, key: string): Promise<SignupLink> {
  return api.call<SignupLink>("GET", `/signup/${keyPath(key)}`);
}

/**
 * `POST /json/signup`: creates the account and signs the person in (the
 * server sets the session cookies, as the login form's POST does).
 * @param email only for a reusable link (the link names no address)
 */
export function signUp(api: ApiClient, fields: { key: string; full_name: string; password: string; email?: string }): Promise<{ user_id: number; email: string }> {
  return api.call("POST", "/signup", fields);
}

/** `POST /json/signup/request`: mails a link that confirms the address and leads to the sign-up form. */
export function requestSignup(api: ApiClient, email: string): Promise<unknown> {
  return api.call("POST", "/signup/request", { email });
}

/** `POST /json/accounts/password/reset`: mails a reset link (the answer is the same whether the address has an account). */
export function requestPasswordReset(api: ApiClient, email: string): Promise<unknown> {
  return api.call("POST", "/accounts/password/reset", { email });
}

/** `GET /json/accounts/password/reset/{key}`: the account's address the link resets. */
export function getPasswordResetLink(api: ApiClient, key: string): Promise<{ email: string }> {
  return api.call<{ email: string }>("GET", `/accounts/password/reset/${keyPath(key)}`);
}

/** `POST /json/accounts/password/reset/{key}`: sets the new password (the link is then used). */
export function resetPassword(api: ApiClient, key: string, newPassword: string): Promise<unknown> {
  return api.call("POST", `/accounts/password/reset/${keyPath(key)}`, { new_password: newPassword });
}

/** `POST /json/accounts/confirm_new_email/{key}`: makes the mailed address the account's; answers it as `email` when it says. */
export function confirmNewEmail(api: ApiClient, key: string): Promise<{ email?: string }> {
  return api.call<{ email?: string }>("POST", `/accounts/confirm_new_email/${keyPath(key)}`);
}

/**
 * Whether joining the organization takes an invitation, for the sign-in
 * page's "Sign up" link: read with `fetch` as the sign-in page reads the
 * organization's name (no session yet).
 * @returns null when it cannot be had (offline, an error): the page then shows no link
 */
export async function fetchInviteRequired(fetchImpl: typeof fetch = fetch): Promise<boolean | null> {
  try {
    const res = await fetchImpl("/json/accounts/signup_settings", { credentials: "omit" });
    if (!res.ok) return null;
    const body = (await res.json()) as { realm_invite_required?: unknown };
    return typeof body.realm_invite_required === "boolean" ? body.realm_invite_required : null;
  } catch {
    return null;
  }
}
