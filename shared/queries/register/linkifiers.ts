import type { Deps } from "../../deps.js";

import { realmLinkifiers } from "../../data/linkifiers.js";

/**
 * The `realm_linkifiers` fetch type of `POST /register`
 * (https://zulip.com/api/register-queue): the organization's linkifiers in
 * its order (one GetItem). A client without the `linkifier_url_template`
 * capability gets an empty list, as from Zulip: it would read the URL
 * templates as the older format strings.
 */
export async function realmLinkifiersInitialState(deps: Deps, realmId: number, urlTemplateCapable: boolean): Promise<Record<string, unknown>> {
  if (!urlTemplateCapable) return { realm_linkifiers: [] };
  const { linkifiers } = await realmLinkifiers(deps, realmId);
  return { realm_linkifiers: linkifiers.map((l) => ({ pattern: l.pattern, url_template: l.url_template, id: l.id })) };
}
