import { randomBytes } from "node:crypto";
import { writeFile, chmod } from "node:fs/promises";
import { doCreateRealm } from "../../shared/actions/realms/create-realm.js";
import type { Deps } from "../../shared/deps.js";
import { getRealm, getRealmIdBySubdomain } from "../../shared/data/realms.js";
import { userById, getUserIdByEmail } from "../../shared/data/users.js";
import { realmUrl } from "../../shared/domain/email.js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";

export interface Credentials {
  site: string;
  email: string;
  apiKey: string;
  /** Only known when the organization was created by this call. */
  password?: string;
  /** A second member to chat with, created with the organization (password known only then). */
  member?: { email: string; password: string };
}

export const DEFAULT_OWNER_EMAIL = "owner@example.com";
/** The second person of the default organization, so a new install can be tried by two people at once. */
export const DEFAULT_MEMBER_EMAIL = "member@example.com";

/**
 * Makes sure the default organization (subdomain `""`) exists with its
 * owner, creating both on first start, with a second member; both are
 * subscribed to the organization's `general` stream.
 * @returns the owner's credentials
 */
export async function ensureDefaultOrganization(deps: Deps): Promise<Credentials> {
  const realmId = await getRealmIdBySubdomain(deps, "");
  if (realmId !== undefined) {
    const realm = (await getRealm(deps, realmId))!;
    const ownerId = await getUserIdByEmail(deps, realm.id, DEFAULT_OWNER_EMAIL);
    const owner = ownerId === undefined ? undefined : await userById(deps, realm.id, ownerId);
    if (owner) return { site: realmUrl(realm, deps.config), email: owner.delivery_email, apiKey: owner.api_key };
  }
  const password = randomBytes(9).toString("base64url");
  const { realm, owner } = await doCreateRealm(deps, {
    string_id: "",
    name: "Local Organization",
    description: "The organization created by npm start.",
    owner: { email: DEFAULT_OWNER_EMAIL, full_name: "Organization Owner", password },
  });
  const memberPassword = randomBytes(9).toString("base64url");
  await doCreateUser(deps, realm, { email: DEFAULT_MEMBER_EMAIL, full_name: "Sam Member", password: memberPassword });
  return {
    site: realmUrl(realm, deps.config),
    email: owner.delivery_email,
    apiKey: owner.api_key,
    password,
    member: { email: DEFAULT_MEMBER_EMAIL, password: memberPassword },
  };
}

/**
 * Writes a zuliprc (the INI file zulip-js and the Python client read) with
 * mode 600, since it holds an API key.
 */
export async function writeZuliprc(path: string, creds: Credentials): Promise<void> {
  const text = `[api]\nemail=${creds.email}\nkey=${creds.apiKey}\nsite=${creds.site}\n`;
  await writeFile(path, text, { mode: 0o600 });
  await chmod(path, 0o600);
}
