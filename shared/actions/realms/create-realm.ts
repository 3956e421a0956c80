import type { Deps } from "../../deps.js";
import { JsonableError } from "../../errors.js";
import { allocateIds } from "../../data/counters.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { putNewRealm } from "../../data/realms.js";

import { Role } from "../../domain/roles.js";
import { doCreateUser } from "../users/create-user.js";
import { doCreateDefaultStreams } from "../streams/default-streams.js";
import { demoOrganizationDeletionDate, type DEMO_ORGANIZATION_LIFETIME_DAYS } from "./demo-organizations.js";

export interface NewRealm {
  /** Subdomain; `""` for the deployment's default organization. */
  string_id: string;
  name: string;
  description?: string;
  owner: { email: string; full_name: string; password?: string };
  /** A demo organization: deleted {@link DEMO_ORGANIZATION_LIFETIME_DAYS} days after creation unless converted. */
  demo?: boolean;
}

/**
 * Creates an organization, its first owner and its default stream
 * `general` (Zulip's `do_create_realm` followed by the owner's `do_create_user`).
 * A demo organization (`demo`) gets its `demo_organization_scheduled_deletion_date`
 * and its entry in the scheduled deletions, written with the realm.
 * @returns the realm and its owner (with the owner's API key)
 * @throws JsonableError 400 `Subdomain already in use` when the subdomain is taken
 */
export async function doCreateRealm(deps: Deps, input: NewRealm): Promise<{ realm: RealmRecord; owner: UserRecord }> {
  const realm: RealmRecord = {
    id: await allocateIds(deps, "realm"),
    string_id: input.string_id.toLowerCase(),
    name: input.name,
    description: input.description ?? "",
    date_created: Math.floor(deps.clock.now() / 1000),
    deactivated: false,
    settings: {},
    user_settings_defaults: {},
    ...(input.demo ? { demo_organization_scheduled_deletion_date: demoOrganizationDeletionDate(deps.clock.now()) } : {}),
  };
  if (!(await putNewRealm(deps, realm))) throw new JsonableError("Subdomain already in use");
  const owner = await doCreateUser(deps, realm, { ...input.owner, role: Role.OWNER });
  await doCreateDefaultStreams(deps, realm, owner);
  return { realm, owner };
}
