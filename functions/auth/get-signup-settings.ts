import type { PublicEndpoint } from "../../shared/http/context.js";
import { fetchSignupSettings } from "../../shared/queries/signup-settings.js";

/**
 * `GET /json/accounts/signup_settings` (web app only, no credentials): the
 * organization of the host's name, whether joining takes an invitation, and
 * the password rules, for the sign-in and sign-up pages.
 */
export const getSignupSettings: PublicEndpoint = async (ctx) => ({ ...fetchSignupSettings(ctx.realm) });
