import { getRealm, updateRealmFields } from "../../shared/data/realms.js";
import type { TestOrg } from "./local-stack.js";

/**
 * Runs `fn` with some of the test organization's settings changed (merged
 * over the stored ones), and puts the stored settings back afterwards, even
 * when `fn` throws.
 */
export async function withRealmSettings(org: TestOrg, settings: Record<string, unknown>, fn: () => Promise<void>): Promise<void> {
  const before = (await getRealm(org.stack.deps, org.realm.id))!.settings ?? {};
  await updateRealmFields(org.stack.deps, org.realm.id, { settings: { ...before, ...settings } });
  try {
    await fn();
  } finally {
    await updateRealmFields(org.stack.deps, org.realm.id, { settings: before });
  }
}
