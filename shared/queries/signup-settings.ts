import type { RealmRecord } from "../data/records/realm.js";
import { realmSettings } from "../domain/realm-settings.js";

/** The body of `GET /json/accounts/signup_settings`. */
export interface SignupSettings {
  realm_name: string | null;
  /** Whether joining takes an invitation (Zulip's `Realm.invite_required`); true when the host names no organization. */
  realm_invite_required: boolean;
  /** Zulip's `password_min_length` (characters), as register reports it. */
  password_min_length: number;
  /** Zulip's `password_min_guesses`, as register reports it. */
  password_min_guesses: number;
}

/**
 * What the web app's signed-out pages need of the organization (Zulip's
 * templates get it from the server: the login page's "Sign up" link when
 * `realm_invite_required` is off, the sign-up form's password rules). `GET
 * /server_settings` has no such fields and its schema admits no others, and
 * register needs a session, hence this web-only read. No table read: the
 * realm comes with the request.
 */
export function fetchSignupSettings(realm: RealmRecord | null): SignupSettings {
  return {
    realm_name: realm?.name ?? null,
    realm_invite_required: realm ? realmSettings(realm).invite_required !== false : true,
    // The values register reports (shared/queries/register/realm.ts); the actions check the length.
    password_min_length: 6,
    password_min_guesses: 10_000,
  };
}
