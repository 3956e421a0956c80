import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { allocateIds } from "../../data/counters.js";
import { deletePlayground, listRealmPlaygrounds, putPlayground } from "../../data/playgrounds.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { JsonableError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { notifyRealmPlaygrounds } from "./notify.js";

/** A new playground as `POST /realm/playgrounds` gives it (lengths already bounded by the endpoint). */
export interface NewPlayground {
  name: string;
  pygments_language: string;
  url_template: string;
}

/** Characters a Pygments lexer name may have (Zulip's `check_pygments_language`). */
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+\-./#]*$/;

/**
 * Checks an RFC 6570 URL template whose one variable must be `code` (Zulip's
 * `RealmPlayground` validation): balanced simple expressions, `{code}` present,
 * no other variable.
 * @throws JsonableError 400 `Invalid URL template.`, `"code" should be the only variable present in the URL template`
 */
function checkUrlTemplate(template: string): void {
  const variables: string[] = [];
  let rest = template;
  for (;;) {
    const open = rest.indexOf("{");
    const close = rest.indexOf("}");
    if (open === -1 && close === -1) break;
    if (open === -1 || close < open || rest.indexOf("{", open + 1) !== -1 && rest.indexOf("{", open + 1) < close) {
      throw new JsonableError("Invalid URL template.");
    }
    variables.push(rest.slice(open + 1, close).replace(/^[+#./;?&]/, ""));
    rest = rest.slice(close + 1);
  }
  const names = variables.flatMap((v) => v.split(",")).map((v) => v.replace(/(\*|:\d+)$/, ""));
  if (names.length === 0 || names.some((n) => n !== "code")) {
    throw new JsonableError('"code" should be the only variable present in the URL template');
  }
}

/**
 * `POST /realm/playgrounds` (https://zulip.com/api/add-code-playground;
 * Zulip's `check_add_realm_playground`): an administrator adds a code
 * playground. Checked before the write: the language's characters, the
 * URL template, and that the organization has no playground of the same
 * language and name. The realm's active users then get
 * `realm_playgrounds` with the whole list.
 * @returns the new playground's ID
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError 400 `Invalid characters in pygments language`, the template errors,
 *   `Realm playground with this Realm, Pygments language and Name already exists.`
 */
export async function checkAddPlayground(deps: Deps, realm: RealmRecord, user: UserRecord, input: NewPlayground): Promise<number> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  if (input.name === "" || input.pygments_language === "") throw new JsonableError("This field cannot be blank.");
  if (!PYGMENTS_LANGUAGE.test(input.pygments_language)) throw new JsonableError("Invalid characters in pygments language");
  checkUrlTemplate(input.url_template);
  const existing = await listRealmPlaygrounds(deps, realm.id);
  if (existing.some((p) => p.pygments_language === input.pygments_language && p.name === input.name)) {
    throw new JsonableError("Realm playground with this Realm, Pygments language and Name already exists.");
  }
  const playground = { id: await allocateIds(deps, "playground"), realm_id: realm.id, ...input };
  await putPlayground(deps, playground);
  const audience = (await listActiveRealmUsers(deps, realm.id)).map((u) => u.user_id);
  await notifyRealmPlaygrounds(deps, [...existing, playground], audience);
  return playground.id;
}

/**
 * `DELETE /realm/playgrounds/{playground_id}` (https://zulip.com/api/remove-code-playground;
 * Zulip's `do_remove_realm_playground`): an administrator removes a
 * playground; the realm's active users get `realm_playgrounds` with the
 * remaining list.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError 400 `Invalid playground` for an ID the organization does not have
 */
export async function checkRemovePlayground(deps: Deps, realm: RealmRecord, user: UserRecord, playgroundId: number): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  if (!(await deletePlayground(deps, realm.id, playgroundId))) throw new JsonableError("Invalid playground");
  const remaining = (await listRealmPlaygrounds(deps, realm.id)).filter((p) => p.id !== playgroundId);
  const audience = (await listActiveRealmUsers(deps, realm.id)).map((u) => u.user_id);
  await notifyRealmPlaygrounds(deps, remaining, audience);
}
