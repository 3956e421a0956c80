import { DeleteCommand, GetCommand } from "@aws-sdk/lib-dynamodb";
import { batchWrite } from "./batch-write.js";
import type { Store } from "./client.js";
import { recordOf } from "./items.js";
import { keyFits, keys } from "./keys.js";
import type { EmailSuppressionRecord } from "./records/email-suppression.js";

/**
 * Puts addresses on the suppression list, each overwriting any earlier
 * entry (so the latest reason and time win). BatchWriteItem, 25 addresses
 * per round trip; addresses are lower-cased and deduplicated first
 * (a batch refuses two writes of one key), and any too long for a key are
 * skipped (no send could reach them either).
 * @param entries what SES reported, one per address
 * @returns the number of addresses written
 */
export async function putEmailSuppressions(store: Store, entries: EmailSuppressionRecord[]): Promise<number> {
  const byKey = new Map<string, EmailSuppressionRecord>();
  for (const entry of entries) {
    const email = entry.email.toLowerCase();
    if (!keyFits(keys.emailSuppression(email))) continue;
    byKey.set(email, { ...entry, email });
  }
  const items = [...byKey.values()].map((record) => ({ ...keys.emailSuppression(record.email), type: "email_suppression", ...record }));
  if (items.length > 0) await batchWrite(store, items);
  return items.length;
}

/**
 * Reads an address's suppression entry: one GetItem (eventually
 * consistent: a report a second old may be missed, and the next send
 * finds it).
 * @returns the entry, or undefined when the address may be mailed
 */
export async function emailSuppression(store: Store, email: string): Promise<EmailSuppressionRecord | undefined> {
  const key = keys.emailSuppression(email);
  if (!keyFits(key)) return undefined;
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key }));
  if (!out.Item) return undefined;
  const item = recordOf<EmailSuppressionRecord>(out.Item);
  return {
    email: item.email,
    reason: item.reason,
    ...(item.bounce_type === undefined ? {} : { bounce_type: item.bounce_type }),
    suppressed_at: item.suppressed_at,
  };
}

/** Takes an address off the suppression list (its owner fixed their mailbox); nothing when absent. One DeleteItem. */
export async function deleteEmailSuppression(store: Store, email: string): Promise<void> {
  const key = keys.emailSuppression(email);
  if (!keyFits(key)) return;
  await store.db.send(new DeleteCommand({ TableName: store.table, Key: key }));
}
