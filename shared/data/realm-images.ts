import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { writeIf } from "./conditions.js";
import { keys } from "./keys.js";

/** Which organization image a write changes: the fields `<kind>_source` and `<kind>_version` of the realm item. */
export type RealmImageKind = "icon" | "logo" | "night_logo";

/**
 * Sets an organization image's source and version on the realm item,
 * compare-and-set on the version read (an absent version counts as 1), so
 * two concurrent uploads cannot both claim one version. One UpdateItem.
 * @returns false when the version changed meanwhile (nothing written)
 */
export async function setRealmImage(
  store: Store,
  realmId: number,
  kind: RealmImageKind,
  source: string,
  expectedVersion: number,
): Promise<boolean> {
  const absentOk = expectedVersion === 1 ? "attribute_not_exists(#v) OR " : "";
  return writeIf(
    store,
    new UpdateCommand({
      TableName: store.table,
      Key: keys.realm(realmId),
      UpdateExpression: "SET #s = :s, #v = :next",
      ConditionExpression: `attribute_exists(pk) AND (${absentOk}#v = :expected)`,
      ExpressionAttributeNames: { "#s": `${kind}_source`, "#v": `${kind}_version` },
      ExpressionAttributeValues: { ":s": source, ":next": expectedVersion + 1, ":expected": expectedVersion },
    }),
  );
}
