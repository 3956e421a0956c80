/** The members `z` has in the Lambda bundles (zod-entry.ts explains why). */
export {
  array,
  boolean,
  enum,
  int,
  literal,
  null,
  number,
  object,
  record,
  strictObject,
  string,
  tuple,
  union,
  unknown,
  ZodType,
} from "../../node_modules/zod/v4/classic/schemas.js";
export { ZodError } from "../../node_modules/zod/v4/classic/errors.js";
export * as coerce from "../../node_modules/zod/v4/classic/coerce.js";
export { NEVER } from "../../node_modules/zod/v4/core/index.js";
