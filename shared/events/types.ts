import type { z } from "zod";
import type { EVENT_SCHEMAS, EventSchemaKey } from "./schemas.js";

/**
 * The TypeScript types of events, inferred from their strict zod schemas
 * (`schemas.ts`), so that one definition says what an event holds: an
 * action that builds an event with a field its schema does not declare, or
 * without one it requires, does not compile.
 *
 * An event as an action builds it has no `id`: a queue gives it its
 * queue-local `id` on delivery (https://zulip.com/api/get-events).
 */

/** `Omit` applied to each member of a union separately (event schemas with several shapes are unions). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * An event as a client receives it from `GET /events`, with its
 * queue-local `id`: of one schema key (`type`, or `type/op`), or by default
 * of any.
 */
export type DeliveredEvent<K extends EventSchemaKey = EventSchemaKey> = z.infer<(typeof EVENT_SCHEMAS)[K]>;

/** An event of one schema key as an action builds it (no `id`). */
export type EventOf<K extends EventSchemaKey> = DistributiveOmit<DeliveredEvent<K>, "id">;

/** Any event the server sends, as built by an action: the union over every schema. */
export type ZulipEvent = { [K in EventSchemaKey]: EventOf<K> }[EventSchemaKey];

/** The message object of a `message` event (https://zulip.com/api/get-events#message). */
export type MessageEventMessage = EventOf<"message">["message"];
