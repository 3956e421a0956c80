import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";

/** One Update action of a transaction (also a valid UpdateCommand input). */
export type UpdateAction = NonNullable<NonNullable<TransactWriteCommandInput["TransactItems"]>[number]["Update"]>;

/** DynamoDB's limit of actions in one TransactWriteItems call. */
export const TRANSACTION_LIMIT = 100;

/** Transactions kept in flight by {@link updateInTransactions}. */
const TRANSACTIONS_IN_FLIGHT = 4;

/** Single updates kept in flight when a transaction falls back to them. */
const FALLBACK_IN_FLIGHT = 32;

/**
 * Runs `fn` over `items` with at most `limit` calls in flight (DynamoDB has
 * no batch update: bulk updates are parallel calls).
 */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Applies many conditioned UpdateItems in batches: up to 100 per
 * TransactWriteItems call, {@link TRANSACTIONS_IN_FLIGHT} calls in flight,
 * so 1,000 updates are 10 round trips rather than 1,000. A transaction is
 * all-or-nothing, so when any of its items fails its condition (or meets a
 * concurrent transaction) the whole chunk falls back to `fallback`, one
 * entry at a time, which decides per entry what a conflict means (skip,
 * re-read and retry). Transactional writes cost twice the write units of
 * plain ones; round trips are what bound a request's time.
 *
 * @param entries what to update (any shape)
 * @param input the conditioned update of one entry
 * @param fallback applies one entry alone; resolves true when it was applied
 * @returns the entries that were applied
 * @throws any storage error other than a cancelled transaction (and whatever `fallback` throws)
 */
export async function updateInTransactions<T>(
  store: Pick<Store, "db">,
  entries: readonly T[],
  input: (entry: T) => UpdateAction,
  fallback: (entry: T) => Promise<boolean>,
): Promise<T[]> {
  const chunks: T[][] = [];
  for (let i = 0; i < entries.length; i += TRANSACTION_LIMIT) chunks.push(entries.slice(i, i + TRANSACTION_LIMIT));
  const applied: T[] = [];
  await forEachLimit(chunks, TRANSACTIONS_IN_FLIGHT, async (chunk) => {
    try {
      if (chunk.length === 1) {
        // A one-item transaction costs double for nothing.
        if (await fallback(chunk[0]!)) applied.push(chunk[0]!);
        return;
      }
      await store.db.send(new TransactWriteCommand({ TransactItems: chunk.map((e) => ({ Update: input(e) })) }));
      applied.push(...chunk);
    } catch (err) {
      if (!(err instanceof Error) || err.name !== "TransactionCanceledException") throw err;
      await forEachLimit(chunk, FALLBACK_IN_FLIGHT, async (e) => {
        if (await fallback(e)) applied.push(e);
      });
    }
  });
  return applied;
}
