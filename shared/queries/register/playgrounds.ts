import type { Deps } from "../../deps.js";

import { listRealmPlaygrounds } from "../../data/playgrounds.js";

/**
 * The `realm_playgrounds` fetch type of `POST /register`
 * (https://zulip.com/api/register-queue): the organization's code
 * playgrounds by ID. One Query of the realm partition's playground range.
 */
export async function realmPlaygroundsInitialState(deps: Deps, realmId: number): Promise<Record<string, unknown>> {
  const list = (await listRealmPlaygrounds(deps, realmId)).sort((a, b) => a.id - b.id);
  return {
    realm_playgrounds: list.map((p) => ({ id: p.id, name: p.name, pygments_language: p.pygments_language, url_template: p.url_template })),
  };
}
