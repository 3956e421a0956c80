import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import type { LinkifierRecord } from "../../data/records/linkifier.js";

import { allocateIds } from "../../data/counters.js";
import { realmLinkifiers, replaceRealmLinkifiers } from "../../data/linkifiers.js";
import { withWriteRetries } from "../../data/retry.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { LinkifierValidationError, MAX_LINKIFIERS_PER_REALM } from "../../domain/linkifier-limits.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { JsonableError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";

/** A linkifier as `GET /realm/linkifiers`, register and `realm_linkifiers` list it. */
export function linkifierToWire(l: LinkifierRecord): { id: number; pattern: string; url_template: string } {
  return { pattern: l.pattern, url_template: l.url_template, id: l.id };
}

/**
 * Sends `realm_linkifiers` with the realm's whole list in its order
 * (https://zulip.com/api/get-events#realm_linkifiers; Zulip's
 * `notify_linkifiers`) to the realm's active users; queues without the
 * `linkifier_url_template` capability do not take it (`events/delivery.ts`).
 * Call only after the change is stored.
 */
export async function notifyRealmLinkifiers(deps: Deps, realmId: number, linkifiers: LinkifierRecord[]): Promise<void> {
  const audience = (await listActiveRealmUsers(deps, realmId)).map((u) => u.user_id);
  await sendEvent(deps, { type: "realm_linkifiers", realm_linkifiers: linkifiers.map(linkifierToWire) }, audience);
}

/** Zulip's `unique_together = ("realm", "pattern")` message. */
const DUPLICATE_PATTERN = "Realm filter with this Realm and Pattern already exists.";

/**
 * Applies `change` to the realm's stored list and writes it back if nobody
 * wrote in between (re-read and retried otherwise), then notifies.
 * `change` may throw a Zulip error; then nothing is written.
 */
async function changeLinkifiers(
  deps: Deps,
  realm: RealmRecord,
  what: string,
  change: (current: LinkifierRecord[]) => Promise<LinkifierRecord[] | "unchanged">,
): Promise<void> {
  let changed = true;
  const list = await withWriteRetries(what, async () => {
    const current = await realmLinkifiers(deps, realm.id, { consistent: true });
    const next = await change(current.linkifiers);
    if (next === "unchanged") {
      changed = false;
      return current.linkifiers;
    }
    return (await replaceRealmLinkifiers(deps, realm.id, current.version, next)) ? next : undefined;
  });
  if (changed) await notifyRealmLinkifiers(deps, realm.id, list);
}

/**
 * `POST /realm/filters` (https://zulip.com/api/add-linkifier; Zulip's
 * `do_add_linkifier`): an administrator adds a linkifier at the end of the
 * organization's order. Pattern and template are trimmed, then checked
 * (`checkLinkifier`), the pattern must be new to the organization, and the
 * organization may have at most {@link MAX_LINKIFIERS_PER_REALM}. One
 * consistent GetItem, one ID, one conditional PutItem, then
 * `realm_linkifiers` to the realm's active users.
 * @returns the new linkifier's ID
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws LinkifierValidationError the checks of `checkLinkifier`,
 *   `Realm filter with this Realm and Pattern already exists.`
 * @throws JsonableError `Too many linkifiers (limit: 100)`
 */
export async function checkAddLinkifier(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  input: { pattern: string; url_template: string },
): Promise<number> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const pattern = input.pattern.trim();
  const urlTemplate = input.url_template.trim();
  await checkLinkifier(pattern, urlTemplate);
  let id: number | undefined;
  await changeLinkifiers(deps, realm, "add linkifier", async (current) => {
    if (current.some((l) => l.pattern === pattern)) throw new LinkifierValidationError(DUPLICATE_PATTERN, "__all__");
    if (current.length >= MAX_LINKIFIERS_PER_REALM) throw new JsonableError(`Too many linkifiers (limit: ${MAX_LINKIFIERS_PER_REALM})`);
    id ??= await allocateIds(deps, "linkifier");
    return [...current, { id, pattern, url_template: urlTemplate }];
  });
  return id!;
}

/**
 * `PATCH /realm/filters/{filter_id}` (https://zulip.com/api/update-linkifier;
 * Zulip's `do_update_linkifier`): an administrator replaces a linkifier's
 * pattern and template, keeping its place in the order; checked as when
 * adding (another linkifier may not have the pattern).
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError `Linkifier not found.`, the checks of {@link checkAddLinkifier}
 */
export async function checkUpdateLinkifier(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  linkifierId: number,
  input: { pattern: string; url_template: string },
): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const pattern = input.pattern.trim();
  const urlTemplate = input.url_template.trim();
  await changeLinkifiers(deps, realm, "update linkifier", async (current) => {
    if (!current.some((l) => l.id === linkifierId)) throw new JsonableError("Linkifier not found.");
    await checkLinkifier(pattern, urlTemplate);
    if (current.some((l) => l.id !== linkifierId && l.pattern === pattern)) {
      throw new LinkifierValidationError(DUPLICATE_PATTERN, "__all__");
    }
    return current.map((l) => (l.id === linkifierId ? { id: l.id, pattern, url_template: urlTemplate } : l));
  });
}

/**
 * `DELETE /realm/filters/{filter_id}` (https://zulip.com/api/remove-linkifier;
 * Zulip's `do_remove_linkifier`): an administrator removes a linkifier; the
 * others keep their order.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError `Linkifier not found.`
 */
export async function checkRemoveLinkifier(deps: Deps, realm: RealmRecord, user: UserRecord, linkifierId: number): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  await changeLinkifiers(deps, realm, "remove linkifier", async (current) => {
    if (!current.some((l) => l.id === linkifierId)) throw new JsonableError("Linkifier not found.");
    return current.filter((l) => l.id !== linkifierId);
  });
}

/**
 * `PATCH /realm/linkifiers` (https://zulip.com/api/reorder-linkifiers;
 * Zulip's `check_reorder_linkifiers`): an administrator gives the order of
 * every linkifier. Nothing is written nor sent when the organization has
 * none.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError `The ordered list must not contain duplicated linkifiers`,
 *   `The ordered list must enumerate all existing linkifiers exactly once`
 */
export async function checkReorderLinkifiers(deps: Deps, realm: RealmRecord, user: UserRecord, orderedIds: number[]): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const wanted = new Set(orderedIds);
  if (wanted.size < orderedIds.length) throw new JsonableError("The ordered list must not contain duplicated linkifiers");
  await changeLinkifiers(deps, realm, "reorder linkifiers", async (current) => {
    if (current.length !== wanted.size || current.some((l) => !wanted.has(l.id))) {
      throw new JsonableError("The ordered list must enumerate all existing linkifiers exactly once");
    }
    if (current.length === 0) return "unchanged";
    const byId = new Map(current.map((l) => [l.id, l]));
    return orderedIds.map((id) => byId.get(id)!);
  });
}

/**
 * `checkLinkifier` of shared/domain/linkifiers.ts, loaded on first use: its
 * regex engine (`re2js`, about 150 KiB) stays out of the realm Lambda's
 * cold start, which most requests never need it for.
 * @throws LinkifierValidationError as `checkLinkifier`
 */
async function checkLinkifier(pattern: string, urlTemplate: string): Promise<void> {
  const { checkLinkifier: check } = await import("../../domain/linkifiers.js");
  check(pattern, urlTemplate);
}
