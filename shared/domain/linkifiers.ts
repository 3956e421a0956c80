/**
 * Checks of a linkifier's pattern and URL template, as Zulip's `RealmFilter`
 * validates them (https://zulip.com/help/add-a-custom-linkifier): the
 * pattern must compile with RE2 (here `re2js`, the same syntax and the same
 * linear-time guarantee), the template must be an RFC 6570 template, and
 * the template's variables must be exactly the pattern's named groups.
 */
import { RE2JS, RE2JSSyntaxException } from "re2js";
import { LinkifierValidationError, MAX_LINKIFIER_PROGRAM_SIZE } from "./linkifier-limits.js";

/**
 * RE2's (C++) wording of each parse error `re2js` reports (`RE2JSSyntaxException.error`,
 * Go/RE2J wording): Zulip answers `Bad regular expression: <RE2's text>: <fragment>`.
 */
const RE2_ERROR_TEXT: Record<string, string> = {
  "missing closing )": "missing )",
  "unexpected )": "unexpected )",
  "missing closing ]": "missing ]",
  "invalid character class": "invalid character class",
  "invalid character class range": "invalid character class range",
  "invalid escape sequence": "invalid escape sequence",
  "invalid named capture": "invalid named capture group",
  "duplicate capture group name": "duplicate capture group name",
  "invalid or unsupported Perl syntax": "invalid perl operator",
  "invalid nested repetition operator": "bad repetition operator",
  "invalid repeat count": "bad repetition operator",
  "missing argument to repetition operator": "no argument for repetition operator",
  "trailing backslash at end of expression": "trailing \\",
  "invalid UTF-8": "invalid UTF-8",
};

/**
 * Compiles a linkifier pattern as Zulip's `filter_pattern_validator` does.
 * @returns the pattern's named groups
 * @throws LinkifierValidationError `This field cannot be blank.`, `Bad regular expression: <reason>: <fragment>`,
 *   `Bad regular expression: pattern too large - compile failed` (over {@link MAX_LINKIFIER_PROGRAM_SIZE})
 */
export function checkLinkifierPattern(pattern: string): string[] {
  if (pattern === "") throw new LinkifierValidationError("This field cannot be blank.", "pattern");
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern);
  } catch (err) {
    if (err instanceof RE2JSSyntaxException) {
      const reason = RE2_ERROR_TEXT[err.error] ?? err.error;
      throw new LinkifierValidationError(`Bad regular expression: ${reason}: ${err.input}`, "__all__");
    }
    throw new LinkifierValidationError("Unknown regular expression error", "__all__");
  }
  if (regex.programSize() > MAX_LINKIFIER_PROGRAM_SIZE) {
    throw new LinkifierValidationError("Bad regular expression: pattern too large - compile failed", "__all__");
  }
  return Object.keys(regex.namedGroups());
}

// RFC 6570 expressions: an optional operator, then variable specs (`name`, `name:3`, `name*`) separated by commas.
const VARCHAR = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})";
const VARSPEC = new RegExp(`^(${VARCHAR}(?:\\.?${VARCHAR})*)(?::[1-9][0-9]{0,3}|\\*)?$`);
const OPERATORS = "+#./;?&";

/**
 * The variables of an RFC 6570 URL template, checking its expressions the
 * way Zulip's `url_template_validator` (the `uri_template` package) does:
 * braces pair up without nesting, each expression has an optional operator
 * (`+#./;?&`) and comma-separated variable names with an optional `:length`
 * or `*`. Literal text is not checked (`$not_a_url$` is a valid template).
 * Expansion itself is `url-template`'s (`shared/markdown/linkifiers.ts`).
 * @throws LinkifierValidationError `Invalid URL template.`
 */
export function urlTemplateVariables(template: string): string[] {
  const invalid = () => new LinkifierValidationError("Invalid URL template.", "url_template");
  const names: string[] = [];
  let at = 0;
  for (;;) {
    const open = template.indexOf("{", at);
    const close = template.indexOf("}", at);
    if (open === -1) {
      if (close !== -1) throw invalid();
      return names;
    }
    if (close !== -1 && close < open) throw invalid();
    const end = template.indexOf("}", open);
    if (end === -1) throw invalid();
    let expression = template.slice(open + 1, end);
    if (expression.includes("{")) throw invalid();
    if (OPERATORS.includes(expression[0] ?? "")) expression = expression.slice(1);
    for (const spec of expression.split(",")) {
      const match = VARSPEC.exec(spec);
      if (!match) throw invalid();
      names.push(match[1]);
    }
    at = end + 1;
  }
}

/**
 * Checks a linkifier as Zulip's `RealmFilter.full_clean` does: blank fields,
 * the template, the pattern, then that the template's variables and the
 * pattern's named groups are the same set (the alphabetically first
 * difference is reported).
 * @throws LinkifierValidationError `This field cannot be blank.`, `Invalid URL template.`,
 *   the pattern errors of {@link checkLinkifierPattern},
 *   `Group '<name>' in URL template is not present in linkifier pattern.`,
 *   `Group '<name>' in linkifier pattern is not present in URL template.`
 */
export function checkLinkifier(pattern: string, urlTemplate: string): void {
  // Django's order: each field's own checks (pattern, then template), then the model's `clean`.
  if (pattern === "") throw new LinkifierValidationError("This field cannot be blank.", "pattern");
  if (urlTemplate === "") throw new LinkifierValidationError("This field cannot be blank.", "url_template");
  const variables = new Set(urlTemplateVariables(urlTemplate));
  const groups = new Set(checkLinkifierPattern(pattern));
  const notInPattern = [...variables].filter((v) => !groups.has(v)).sort();
  if (notInPattern.length > 0) {
    throw new LinkifierValidationError(`Group '${notInPattern[0]}' in URL template is not present in linkifier pattern.`, "__all__");
  }
  const notInTemplate = [...groups].filter((g) => !variables.has(g)).sort();
  if (notInTemplate.length > 0) {
    throw new LinkifierValidationError(`Group '${notInTemplate[0]}' in linkifier pattern is not present in URL template.`, "__all__");
  }
}
