import { z } from "zod";

/** `field_data` of the custom profile field endpoints: a JSON object, checked per field type by the action. */
export const fieldDataSchema = z.record(z.string(), z.unknown());

/** Longest `order` list `PATCH /realm/profile_fields` takes (ten times the field limit). */
export const MAX_ORDER_LENGTH = 1000;
