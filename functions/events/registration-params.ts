import { z } from "zod";
import type { ClientCapabilities, QueueOptions } from "../../shared/data/records/event-queue.js";
import type { UserRecord } from "../../shared/data/records/user.js";

import { isGuest } from "../../shared/domain/roles.js";
import { JsonableError } from "../../shared/errors.js";
import { checkEventNarrow } from "../../shared/events/narrow.js";
import { boundedList, param, parseParams, type ParsedParams } from "../../shared/http/params.js";
import type { RawParams } from "../../shared/http/raw-params.js";

/**
 * A JSON list of event types; `null` (what zulip-js sends when it has none)
 * means every type. Zulip has fewer than a hundred event types, all short
 * names; the list is stored on the queue item, so it is bounded well below
 * DynamoDB's 400 KB item limit.
 */
const eventTypeList = (name: string) => boundedList(name, z.string().max(100), 200).nullable();

const capabilitiesSchema = z
  .object({
    notification_settings_null: z.boolean().optional(),
    bulk_message_deletion: z.boolean().optional(),
    user_avatar_url_field_optional: z.boolean().optional(),
    stream_typing_notifications: z.boolean().optional(),
    user_settings_object: z.boolean().optional(),
    linkifier_url_template: z.boolean().optional(),
    user_list_incomplete: z.boolean().optional(),
  })
  // Capabilities this server does not know are ignored, so newer clients keep working.
  .loose();

/**
 * The registration parameters of `POST /register`
 * (https://zulip.com/api/register-queue), also accepted by `GET /events`
 * without a `queue_id`.
 * @param clientGravatarDefault true for `POST /register` (feature level 92+), false for `GET /events` (as Zulip)
 */
export function registrationParamSpecs(clientGravatarDefault: boolean) {
  return {
    apply_markdown: param.bool().default(false),
    client_gravatar: param.bool().default(clientGravatarDefault),
    slim_presence: param.bool().default(false),
    all_public_streams: param.bool().default(false),
    include_subscribers: param.bool().default(false),
    event_types: param.json(eventTypeList("event_types")).optional(),
    fetch_event_types: param.json(eventTypeList("fetch_event_types")).optional(),
    client_capabilities: param.json(capabilitiesSchema).optional(),
    narrow: param.json(z.array(z.unknown())).default([]),
    // Zulip's undocumented top-level forms of three capabilities (`GET /events` registration).
    bulk_message_deletion: param.bool().optional(),
    stream_typing_notifications: param.bool().optional(),
    user_settings_object: param.bool().optional(),
  };
}

export type RegistrationParams = ParsedParams<ReturnType<typeof registrationParamSpecs>>;

/** Parses the registration parameters. @throws JsonableError for malformed values */
export function parseRegistrationParams(raw: RawParams, clientGravatarDefault: boolean): RegistrationParams {
  return parseParams(raw, registrationParamSpecs(clientGravatarDefault));
}

/**
 * Turns parsed registration parameters into a queue's options.
 * @throws JsonableError `User not authorized for this query` for
 *   `all_public_streams` by a guest (Zulip's `can_access_public_streams`),
 *   and the narrow errors of `checkEventNarrow`
 */
export function queueOptionsFrom(p: RegistrationParams, user: UserRecord, clientName: string): QueueOptions {
  if (p.all_public_streams && isGuest(user)) throw new JsonableError("User not authorized for this query");
  const caps = p.client_capabilities ?? {};
  const capabilities: ClientCapabilities = {
    notification_settings_null: caps.notification_settings_null === true,
    bulk_message_deletion: (caps.bulk_message_deletion ?? p.bulk_message_deletion) === true,
    user_avatar_url_field_optional: caps.user_avatar_url_field_optional === true,
    stream_typing_notifications: (caps.stream_typing_notifications ?? p.stream_typing_notifications) === true,
    user_settings_object: (caps.user_settings_object ?? p.user_settings_object) === true,
    linkifier_url_template: caps.linkifier_url_template === true,
    user_list_incomplete: caps.user_list_incomplete === true,
  };
  return {
    event_types: p.event_types ?? null,
    narrow: checkEventNarrow(p.narrow),
    all_public_streams: p.all_public_streams,
    apply_markdown: p.apply_markdown,
    client_gravatar: p.client_gravatar,
    slim_presence: p.slim_presence,
    capabilities,
    client_name: clientName,
  };
}
