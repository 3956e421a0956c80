/**
 * The shape of the service's single DynamoDB table: key attributes, global
 * secondary indexes and the TTL attribute. The CDK stack and the local
 * stack both create the table from this one definition.
 *
 * Every key attribute is a string; numeric IDs inside sort keys are
 * zero-padded (see `keys.ts`) so that string order is numeric order.
 * docs/data-model.md lists which item types use which index.
 */
export const TABLE_KEYS = { partitionKey: "pk", sortKey: "sk" } as const;

/** Attribute holding an item's expiry time in UNIX seconds; DynamoDB TTL deletes it after. */
export const TTL_ATTRIBUTE = "expires_at";

/** Global secondary indexes, all projecting every attribute. */
export const GLOBAL_INDEXES = [
  { name: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk" },
  { name: "gsi2", partitionKey: "gsi2pk", sortKey: "gsi2sk" },
  { name: "gsi3", partitionKey: "gsi3pk", sortKey: "gsi3sk" },
  { name: "gsi4", partitionKey: "gsi4pk", sortKey: "gsi4sk" },
  { name: "gsi5", partitionKey: "gsi5pk", sortKey: "gsi5sk" },
] as const;

export type IndexName = (typeof GLOBAL_INDEXES)[number]["name"];
