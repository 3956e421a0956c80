/**
 * A linkifier's limits and its check error
 * (https://zulip.com/help/add-a-custom-linkifier), apart from the checks
 * themselves (`linkifiers.ts`, which loads the `re2js` engine): the
 * endpoints' parameter bounds and the organization's cap need no regex
 * engine in the Lambda's cold start.
 */
import { JsonableError } from "../errors.js";

/** Longest pattern accepted (characters); Zulip has no limit, a DynamoDB item and the render budget need one. */
export const MAX_LINKIFIER_PATTERN_LENGTH = 1000;
/** Longest URL template accepted (characters). */
export const MAX_LINKIFIER_URL_TEMPLATE_LENGTH = 1024;
/** Most linkifiers an organization may have: each costs every message and topic a scan. */
export const MAX_LINKIFIERS_PER_REALM = 100;
/**
 * Largest compiled program accepted (re2js instructions). Matching is
 * linear in the text times the program, so a pattern like `(\w{1,100}){1,10}`
 * that RE2 accepts but that compiles to thousands of instructions would make
 * every message slow to render; refused with RE2's own wording for a
 * program over its memory budget.
 */
export const MAX_LINKIFIER_PROGRAM_SIZE = 2000;

/**
 * A linkifier check failure (400 `BAD_REQUEST`). `field` names what Django
 * would file it under; the envelope carries only `msg`, as the OpenAPI
 * error schema of these endpoints allows no other field.
 */
export class LinkifierValidationError extends JsonableError {
  constructor(
    msg: string,
    readonly field: "pattern" | "url_template" | "__all__",
  ) {
    super(msg);
  }
}
