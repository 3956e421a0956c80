import { z } from "zod";
import {
  customProfileFieldSchema,
  eventIdField,
  groupSettingValue,
  integer,
  positiveId,
  settingValueSchema,
  userGroupSchema,
} from "./object-schemas.js";

/**
 * The strict schemas of the organization-administration events (user
 * groups, custom profile fields, organization settings, playgrounds,
 * default settings for new users), as https://zulip.com/api/get-events
 * gives them at feature level 283. `EVENT_SCHEMAS` in `schemas.ts` holds
 * them with every other event's.
 */
export const ORGANIZATION_EVENT_SCHEMAS = {
  // https://zulip.com/api/get-events#user_group-add and the other `user_group` ops.
  "user_group/add": z.strictObject({ id: eventIdField, type: z.literal("user_group"), op: z.literal("add"), group: userGroupSchema }),
  "user_group/update": z.strictObject({
    id: eventIdField,
    type: z.literal("user_group"),
    op: z.literal("update"),
    group_id: integer,
    data: z.strictObject({
      name: z.string().optional(),
      description: z.string().optional(),
      can_manage_group: groupSettingValue.optional(),
      can_mention_group: groupSettingValue.optional(),
    }),
  }),
  "user_group/add_members": z.strictObject({
    id: eventIdField,
    type: z.literal("user_group"),
    op: z.literal("add_members"),
    group_id: integer,
    user_ids: z.array(integer),
  }),
  "user_group/remove_members": z.strictObject({
    id: eventIdField,
    type: z.literal("user_group"),
    op: z.literal("remove_members"),
    group_id: integer,
    user_ids: z.array(integer),
  }),
  "user_group/add_subgroups": z.strictObject({
    id: eventIdField,
    type: z.literal("user_group"),
    op: z.literal("add_subgroups"),
    group_id: integer,
    direct_subgroup_ids: z.array(integer),
  }),
  "user_group/remove_subgroups": z.strictObject({
    id: eventIdField,
    type: z.literal("user_group"),
    op: z.literal("remove_subgroups"),
    group_id: integer,
    direct_subgroup_ids: z.array(integer),
  }),
  "user_group/remove": z.strictObject({ id: eventIdField, type: z.literal("user_group"), op: z.literal("remove"), group_id: integer }),
  // https://zulip.com/api/get-events#custom_profile_fields: the realm's whole field list after any change.
  custom_profile_fields: z.strictObject({
    id: eventIdField,
    type: z.literal("custom_profile_fields"),
    fields: z.array(customProfileFieldSchema),
  }),
  // https://zulip.com/api/get-events#realm-update: one organization setting changed.
  "realm/update": z.strictObject({
    id: eventIdField,
    type: z.literal("realm"),
    op: z.literal("update"),
    property: z.string(),
    value: z.union([z.string(), z.boolean(), integer, z.null()]),
  }),
  // https://zulip.com/api/get-events#realm-update_dict: settings sent in the dictionary form
  // (message-edit settings, group-valued settings, the demo-organization conversion).
  "realm/update_dict": z.strictObject({
    id: eventIdField,
    type: z.literal("realm"),
    op: z.literal("update_dict"),
    property: z.literal("default"),
    data: z.record(z.string(), z.union([z.string(), z.boolean(), integer, z.null()])),
  }),
  // https://zulip.com/api/get-events#realm-deactivated
  "realm/deactivated": z.strictObject({
    id: eventIdField,
    type: z.literal("realm"),
    op: z.literal("deactivated"),
    realm_id: positiveId,
  }),
  // https://zulip.com/api/get-events#realm_linkifiers: the whole list, in the organization's order.
  realm_linkifiers: z.strictObject({
    id: eventIdField,
    type: z.literal("realm_linkifiers"),
    realm_linkifiers: z.array(z.strictObject({ id: positiveId, pattern: z.string(), url_template: z.string() })),
  }),
  // https://zulip.com/api/get-events#realm_playgrounds: the whole list (OpenAPI `RealmPlayground`).
  realm_playgrounds: z.strictObject({
    id: eventIdField,
    type: z.literal("realm_playgrounds"),
    realm_playgrounds: z.array(
      z.strictObject({ id: positiveId, name: z.string(), pygments_language: z.string(), url_template: z.string() }),
    ),
  }),
  // https://zulip.com/api/get-events#realm_export: every export of the organization (OpenAPI `RealmExport`).
  realm_export: z.strictObject({
    id: eventIdField,
    type: z.literal("realm_export"),
    exports: z.array(
      z.strictObject({
        id: positiveId,
        acting_user_id: positiveId,
        export_time: z.number(),
        deleted_timestamp: z.number().nullable(),
        failed_timestamp: z.number().nullable(),
        export_url: z.string().nullable(),
        pending: z.boolean(),
      }),
    ),
  }),
  // https://zulip.com/api/get-events#realm_user_settings_defaults-update
  "realm_user_settings_defaults/update": z.strictObject({
    id: eventIdField,
    type: z.literal("realm_user_settings_defaults"),
    op: z.literal("update"),
    property: z.string(),
    value: settingValueSchema,
  }),
} satisfies Record<string, z.ZodType>;
