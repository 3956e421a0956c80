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

/**
 * Global secondary indexes. gsi1–gsi5 project every attribute (their
 * Queries serve whole records); gsi6, the per-message readers index of
 * UserMessage rows, projects only the keys: its one reader wants user IDs,
 * and a keys-only entry (~60 bytes) lets one 1 MB Query page hold ~15,000
 * readers (docs/data-model.md "Read receipts").
 */
export const GLOBAL_INDEXES = [
  { name: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk", projection: "ALL" },
  { name: "gsi2", partitionKey: "gsi2pk", sortKey: "gsi2sk", projection: "ALL" },
  { name: "gsi3", partitionKey: "gsi3pk", sortKey: "gsi3sk", projection: "ALL" },
  { name: "gsi4", partitionKey: "gsi4pk", sortKey: "gsi4sk", projection: "ALL" },
  { name: "gsi5", partitionKey: "gsi5pk", sortKey: "gsi5sk", projection: "ALL" },
  { name: "gsi6", partitionKey: "gsi6pk", sortKey: "gsi6sk", projection: "KEYS_ONLY" },
] as const;

export type IndexName = (typeof GLOBAL_INDEXES)[number]["name"];
