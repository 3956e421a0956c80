/**
 * The API contract as a test helper: loads Zulip's OpenAPI description
 * (`../shared/reference/zulip-openapi.yaml` beside the repository, feature
 * level 283), turns the response schema of an operation into an ajv
 * validator, and reports mismatches by field path.
 *
 * The file is reference material that CI clones beside the repository; a
 * clone without it skips the contract tests, unless `CI` is set, where they
 * fail (see {@link contractMode}).
 *
 * OpenAPI 3.0 schemas are nearly JSON Schema; the differences handled here:
 * - `nullable: true` becomes a `null` member of `type` (and of `enum`);
 *   beside no `type` (a partial overlay in an `allOf` branch) it says
 *   nothing and is dropped.
 * - `oneOf` becomes `anyOf`: Zulip lists overlapping alternatives under
 *   `oneOf` (several error shapes that a `{result, msg, code}` body all
 *   match), which strict JSON Schema would reject for matching twice.
 * - `example`, `examples` and the file's `x-*` keys are documentation: dropped.
 * - `$ref`s are inlined (the file's references are local and acyclic).
 * - `allOf` keeps its JSON Schema meaning: the file lists every property
 *   (as `{}`) in the branch that says `additionalProperties: false`.
 *
 * Deliberate allowances, each named (nothing else is loosened):
 * - {@link VERSION_EXTRAS}: our responses carry `service_version`,
 *   `service_feature_level` and `service_merge_base` beside the `zulip_*`
 *   triple because our spec (`api.md`, "Register an event queue",
 *   "Versioning") names them; they are allowed wherever `zulip_version` or
 *   `zulip_feature_level` is a documented property.
 * - {@link SPEC_SUBSCRIPTION_EXTRAS}: the spec's subscription object lists
 *   `email_address` and `role`, which Zulip removed at feature levels 226
 *   and 133; the spec wins, so they are allowed in subscription objects.
 * - {@link SPEC_REGISTER_EXTRAS} (`hotspots`) and
 *   {@link SPEC_MESSAGE_EVENT_EXTRAS} (`local_id`): likewise named by the spec.
 * - `delivery_email` needs no allowance: the contract marks it nullable but
 *   not required, so the spec's rule (present only when visibility is
 *   limited and the caller is an administrator) conforms as it is.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

/** The repository root (this file is `test/support/openapi.ts`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where the contract lives: `shared/` is cloned beside the repository. */
export const CONTRACT_PATH = resolve(REPO_ROOT, "../shared/reference/zulip-openapi.yaml");

/** Whether the contract file is present in this checkout. */
export const contractAvailable = existsSync(CONTRACT_PATH);

/** Why the contract tests are skipped when the file is absent. */
export const CONTRACT_SKIP_MESSAGE =
  `contract tests skipped: ${CONTRACT_PATH} not found ` +
  "(clone the shared reference material beside the repository to run them)";

/** Why the contract tests fail when the file is absent under CI. */
export const CONTRACT_MISSING_IN_CI_MESSAGE =
  `contract file ${CONTRACT_PATH} not found and CI is set: CI must clone the shared ` +
  "reference material beside the repository (without CI the contract tests are skipped)";

/** What contract tests do in a checkout: run, be skipped, or fail. */
export type ContractMode = "run" | "skip" | "fail";

/**
 * Whether the environment says this is a CI run: `CI` set to anything but
 * the empty string, `false` or `0`.
 */
export function isCi(env: Record<string, string | undefined>): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== "" && ci !== "false" && ci !== "0";
}

/**
 * What the contract tests do: `run` when the contract file is present;
 * when it is absent, `fail` under CI ({@link isCi}), where a missing file
 * means a broken checkout, and `skip` elsewhere (a clone without `../shared`).
 * @param contractFileExists whether {@link CONTRACT_PATH} exists
 * @param env the environment, normally `process.env`
 */
export function contractMode(contractFileExists: boolean, env: Record<string, string | undefined>): ContractMode {
  if (contractFileExists) return "run";
  return isCi(env) ? "fail" : "skip";
}

/**
 * `describe` for contract tests, by {@link contractMode}: runs the block
 * when the contract file is present; without it, under CI registers one
 * failing test saying the file is missing, and otherwise registers the
 * block skipped under a title saying why, so a clone without `../shared`
 * still passes and the report shows the reason. Put `useTestOrg()` inside
 * the block so no stack starts unless it runs.
 */
export function describeContract(name: string, fn: () => void): void {
  const mode = contractMode(contractAvailable, process.env);
  if (mode === "run") {
    describe(name, fn);
  } else if (mode === "fail") {
    describe(name, () => {
      it("has the contract file", () => {
        throw new Error(CONTRACT_MISSING_IN_CI_MESSAGE);
      });
    });
  } else {
    console.warn(`${name}: ${CONTRACT_SKIP_MESSAGE}`);
    describe.skip(`${name} (${CONTRACT_SKIP_MESSAGE})`, fn);
  }
}

/**
 * `it` for one contract test among others, by {@link contractMode}: runs
 * it when the contract file is present; without it, fails under CI with
 * {@link CONTRACT_MISSING_IN_CI_MESSAGE}, and otherwise is skipped under a
 * title saying why.
 */
export function itContract(name: string, fn: () => Promise<void> | void): void {
  const mode = contractMode(contractAvailable, process.env);
  if (mode === "run") {
    it(name, fn);
  } else if (mode === "fail") {
    it(name, () => {
      throw new Error(CONTRACT_MISSING_IN_CI_MESSAGE);
    });
  } else {
    it.skip(`${name} (${CONTRACT_SKIP_MESSAGE})`, fn);
  }
}

/** Extra top-level fields our spec adds beside Zulip's `zulip_*` version triple. */
export const VERSION_EXTRAS: Record<string, Schema> = {
  service_version: { type: "string" },
  service_feature_level: { type: "integer" },
  service_merge_base: { type: "string" },
};

/**
 * `POST /register` fields the spec lists although the contract (feature
 * level 283) dropped them: `hotspots` (spec "Register an event queue";
 * Zulip replaced it with `onboarding_steps` at feature level 233).
 */
export const SPEC_REGISTER_EXTRAS: Record<string, Schema> = {
  hotspots: { type: "array" },
};

/**
 * `message` event fields the spec names although the contract's event
 * schema omits them: `local_id` (spec "Events": the `message` event
 * "includes `local_id` when one was given"; the contract's own
 * `POST /messages` text says so too), and `local_message_id`, the name
 * Zulip's own server puts on the sender's copy and its apps read for local
 * echo (the contract documents neither).
 */
export const SPEC_MESSAGE_EVENT_EXTRAS: Record<string, Schema> = {
  local_id: { type: "string" },
  local_message_id: { type: "string" },
};

/** Fields the spec's subscription object keeps although the contract dropped them. */
export const SPEC_SUBSCRIPTION_EXTRAS: Record<string, Schema> = {
  email_address: { type: "string" },
  role: { type: "integer", enum: [20, 50] },
};

type Schema = Record<string, any>;
type Doc = Record<string, any>;

let docCache: Doc | undefined;

/** The parsed contract (parsed once per test file; about 1 MB of YAML). */
export function loadContract(): Doc {
  if (!docCache) {
    if (!contractAvailable) throw new Error(CONTRACT_SKIP_MESSAGE);
    docCache = parse(readFileSync(CONTRACT_PATH, "utf8"), { maxAliasCount: -1 }) as Doc;
  }
  return docCache;
}

function pointer(doc: Doc, ref: string): any {
  if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported, got ${ref}`);
  let node: any = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = node?.[key];
    if (node === undefined) throw new Error(`unresolvable $ref ${ref}`);
  }
  return node;
}

/** Keys that are documentation, not constraints. */
function isDocKey(key: string): boolean {
  return key === "example" || key === "examples" || key.startsWith("x-");
}

/**
 * Converts an OpenAPI 3.0 schema (with `$ref`s into `doc`) to a JSON Schema
 * ajv accepts, applying the rules in the module comment. Only schema
 * positions are walked; `enum`, `default` and `required` are copied as data.
 */
export function toJsonSchema(doc: Doc, node: unknown, stack: string[] = []): Schema | boolean {
  if (typeof node === "boolean") return node;
  if (node === null || typeof node !== "object" || Array.isArray(node)) {
    throw new Error(`not a schema at ${stack.join(" > ") || "(root)"}: ${JSON.stringify(node)}`);
  }
  const src = node as Schema;
  if (typeof src.$ref === "string") {
    if (stack.includes(src.$ref)) throw new Error(`cyclic $ref ${src.$ref}`);
    return toJsonSchema(doc, pointer(doc, src.$ref), [...stack, src.$ref]);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(src)) {
    if (isDocKey(key) || key === "nullable") continue;
    switch (key) {
      case "properties":
        out.properties = Object.fromEntries(
          Object.entries(value as Schema).map(([name, sub]) => [name, toJsonSchema(doc, sub, stack)]),
        );
        break;
      case "additionalProperties":
      case "items":
      case "not":
        out[key] = toJsonSchema(doc, value, stack);
        break;
      case "allOf":
      case "anyOf":
      case "oneOf":
        out[key === "oneOf" ? "anyOf" : key] = (value as unknown[]).map((sub) => toJsonSchema(doc, sub, stack));
        break;
      default:
        out[key] = value;
    }
  }
  if (src.nullable === true && out.type !== undefined) {
    out.type = Array.isArray(out.type) ? [...new Set([...out.type, "null"])] : [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  if (out.additionalProperties === false && out.properties) {
    const props = out.properties as Schema;
    if ("zulip_version" in props || "zulip_feature_level" in props) {
      for (const [name, schema] of Object.entries(VERSION_EXTRAS)) props[name] ??= schema;
    }
    // A subscription object: the only schemas with both of these.
    if ("pin_to_top" in props && "in_home_view" in props) {
      for (const [name, schema] of Object.entries(SPEC_SUBSCRIPTION_EXTRAS)) props[name] ??= schema;
    }
    // The register response: the only schema with both of these.
    if ("queue_id" in props && "last_event_id" in props) {
      for (const [name, schema] of Object.entries(SPEC_REGISTER_EXTRAS)) props[name] ??= schema;
    }
    // The `message` event.
    // Event `type`s are written `allOf: [EventTypeSchema, {enum: [<type>]}]`.
    const typeSchema = (props.type ?? {}) as Schema;
    const typeEnums = [typeSchema.enum, ...((typeSchema.allOf ?? []) as Schema[]).map((b) => b.enum)];
    if (typeEnums.some((e) => Array.isArray(e) && e.length === 1 && e[0] === "message") && "flags" in props) {
      for (const [name, schema] of Object.entries(SPEC_MESSAGE_EVENT_EXTRAS)) props[name] ??= schema;
    }
  }
  return out;
}

let ajvCache: Ajv | undefined;
function ajv(): Ajv {
  if (!ajvCache) {
    // strict: false: descriptions, `deprecated` and `format`s Zulip invents are not errors.
    ajvCache = new Ajv({ strict: false, allErrors: true });
    // ajv-formats ships CommonJS; its default export is the function (or wraps it).
    const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (a: Ajv) => Ajv;
    addFormats(ajvCache);
  }
  return ajvCache;
}

function responseSchema(doc: Doc, response: any): unknown {
  const resolved = typeof response?.$ref === "string" ? pointer(doc, response.$ref) : response;
  return resolved?.content?.["application/json"]?.schema;
}

const validatorCache = new Map<string, { label: string; validate: ValidateFunction }[]>();

/**
 * The validators a response of `status` from `method path` may satisfy:
 * the operation's documented response for that status, and for errors also
 * Zulip's common errors of that status (`/rest-error-handling`, e.g. a
 * missing argument), or the generic `CodedError` when neither documents it.
 * @param path as written in the OpenAPI file, e.g. `/users/{user_id}`
 * @throws when the operation, or a success status, is not documented
 */
export function contractValidators(method: string, path: string, status: number) {
  const cacheKey = `${method.toUpperCase()} ${path} ${status}`;
  const cached = validatorCache.get(cacheKey);
  if (cached) return cached;
  const doc = loadContract();
  const op = doc.paths?.[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`the contract has no operation ${method.toUpperCase()} ${path}`);
  const candidates: { label: string; schema: unknown }[] = [];
  const own = responseSchema(doc, op.responses?.[String(status)]);
  if (own) candidates.push({ label: `${op.operationId} ${status}`, schema: own });
  if (status >= 400) {
    const common = responseSchema(doc, doc.paths["/rest-error-handling"]?.post?.responses?.[String(status)]);
    if (common) candidates.push({ label: `common errors ${status}`, schema: common });
    if (candidates.length === 0) {
      candidates.push({ label: "CodedError", schema: { $ref: "#/components/schemas/CodedError" } });
    }
  }
  if (candidates.length === 0) {
    throw new Error(`the contract documents no ${status} response for ${op.operationId} (${cacheKey})`);
  }
  const validators = candidates.map((c) => ({
    label: c.label,
    validate: ajv().compile(toJsonSchema(doc, c.schema) as Schema),
  }));
  validatorCache.set(cacheKey, validators);
  return validators;
}

/** One way a body departs from the contract. */
export interface ContractMismatch {
  /** JSON pointer of the offending value with array indices as `*`, e.g. `/members/*\/delivery_email`. */
  path: string;
  /** What the contract expects there (ajv's message and parameters). */
  expected: string;
  /** The offending value (for a missing field, the object missing it), abbreviated. */
  actual: string;
}

function valueAt(body: unknown, instancePath: string): unknown {
  let node: any = body;
  for (const raw of instancePath.split("/").slice(1)) {
    node = node?.[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

function abbreviate(value: unknown): string {
  const s = value === undefined ? "undefined" : JSON.stringify(value);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}

function describeError(e: ErrorObject, body: unknown): ContractMismatch {
  const p = e.params as Record<string, unknown>;
  let path = e.instancePath;
  let expected = e.message ?? e.keyword;
  if (e.keyword === "additionalProperties") {
    path = `${path}/${String(p.additionalProperty)}`;
    expected = "no such field (additionalProperties: false)";
  } else if (e.keyword === "required") {
    path = `${path}/${String(p.missingProperty)}`;
    expected = "required field";
  } else if (e.keyword === "enum") {
    expected = `one of ${JSON.stringify(p.allowedValues)}`;
  }
  const actual =
    e.keyword === "required" ? "missing" : abbreviate(valueAt(body, e.keyword === "additionalProperties" ? path : e.instancePath));
  return { path: path.replace(/\/\d+(?=\/|$)/g, "/*") || "/", expected, actual };
}

function within(instancePath: string, prefix: string): boolean {
  return instancePath === prefix || instancePath.startsWith(`${prefix}/`);
}

/**
 * ajv reports the errors of every branch of a failed `anyOf` (the event
 * schema has one branch per event type), which buries the real mismatch.
 * For each failed `anyOf`, outermost first, keep only the errors of the
 * closest branch: one whose `type`/`op` discriminator matched, then the
 * one with the fewest errors. Then drop the `anyOf` summaries themselves.
 */
function leafErrors(errors: ErrorObject[]): ErrorObject[] {
  let kept = errors;
  const anyOfs = errors.filter((e) => e.keyword === "anyOf").sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const a of anyOfs) {
    if (!kept.includes(a)) continue;
    const prefix = `${a.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const e of kept) {
      if (e === a || !e.schemaPath.startsWith(prefix) || !within(e.instancePath, a.instancePath)) continue;
      const k = e.schemaPath.slice(prefix.length).split("/")[0]!;
      branches.set(k, [...(branches.get(k) ?? []), e]);
    }
    if (branches.size < 2) continue;
    const discriminatorMiss = (es: ErrorObject[]) =>
      es.some(
        (e) =>
          (e.keyword === "enum" || e.keyword === "const") &&
          (e.instancePath === `${a.instancePath}/type` || e.instancePath === `${a.instancePath}/op`),
      );
    const ranked = [...branches.values()].sort(
      (x, y) => Number(discriminatorMiss(x)) - Number(discriminatorMiss(y)) || x.length - y.length,
    );
    const drop = new Set(ranked.slice(1).flat());
    kept = kept.filter((e) => !drop.has(e));
  }
  return kept.filter((e) => e.keyword !== "anyOf" && e.keyword !== "if");
}

/**
 * The mismatches between `body` and the contract's response for `status`
 * of `method path` (empty when it conforms to one of the candidates of
 * {@link contractValidators}; otherwise those of the closest candidate),
 * deduplicated by path and expectation.
 */
export function contractMismatches(method: string, path: string, status: number, body: unknown): ContractMismatch[] {
  let best: ContractMismatch[] | undefined;
  for (const { validate } of contractValidators(method, path, status)) {
    if (validate(body)) return [];
    const seen = new Set<string>();
    const found: ContractMismatch[] = [];
    for (const e of leafErrors(validate.errors ?? [])) {
      const m = describeError(e, body);
      const key = `${m.path} ${m.expected}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(m);
    }
    if (!best || found.length < best.length) best = found;
  }
  return best ?? [];
}

/** One line per mismatch: `path: expected …, actual …`. */
export function formatMismatches(mismatches: ContractMismatch[]): string {
  return mismatches.map((m) => `  ${m.path}: expected ${m.expected}; actual ${m.actual}`).join("\n");
}

/**
 * Fails (throws) unless `body`, served with HTTP `status` by `method path`,
 * matches the contract; the message lists every mismatching field. For a
 * 200 it also requires the top-level fields the contract describes as
 * always present ({@link missingTopLevelFields}; `POST /register` has its
 * own rule, {@link registerFieldsExpected}).
 * @param path the operation's path in the OpenAPI file, e.g. `/users/{user_id}` or `/users/{email}`
 */
export function expectMatchesContract(method: string, path: string, status: number, body: unknown): void {
  const mismatches = contractMismatches(method, path, status, body);
  if (status === 200) {
    for (const field of missingTopLevelFields(method, path, body)) {
      mismatches.push({ path: `/${field}`, expected: "documented field", actual: "missing" });
    }
  }
  if (mismatches.length) {
    throw new Error(
      `${method.toUpperCase()} ${path} ${status} does not match the contract:\n${formatMismatches(mismatches)}\n` +
        `body: ${abbreviate(body)}`,
    );
  }
}

/**
 * Asserts a response's HTTP status, then {@link expectMatchesContract};
 * returns the response for further assertions.
 * @param oaPath the operation's path in the OpenAPI file
 */
export function expectConforms<R extends { status: number; body: unknown }>(
  method: string,
  oaPath: string,
  res: R,
  status: number,
): R {
  expect(res.status, `${method} ${oaPath}: ${JSON.stringify(res.body)}`).toBe(status);
  expectMatchesContract(method, oaPath, res.status, res.body);
  return res;
}

/**
 * For endpoints of areas still being written by others: asserts that the
 * mismatches are exactly the `known` ones (each `"<path> <expected>"`), so
 * the test passes today, fails on a new mismatch, and tells the owner to
 * drop an entry once fixed. Returns the mismatches for reporting.
 */
export function expectKnownMismatches(
  method: string,
  path: string,
  status: number,
  body: unknown,
  known: readonly string[],
): ContractMismatch[] {
  const mismatches = contractMismatches(method, path, status, body);
  if (status === 200) {
    for (const field of missingTopLevelFields(method, path, body)) {
      mismatches.push({ path: `/${field}`, expected: "documented field", actual: "missing" });
    }
  }
  const got = new Set(mismatches.map((m) => `${m.path} ${m.expected}`));
  const unexpected = mismatches.filter((m) => !known.includes(`${m.path} ${m.expected}`));
  const fixed = known.filter((k) => !got.has(k));
  if (unexpected.length || fixed.length) {
    throw new Error(
      `${method.toUpperCase()} ${path} ${status}: contract mismatches changed.\n` +
        (unexpected.length ? `new:\n${formatMismatches(unexpected)}\n` : "") +
        (fixed.length ? `no longer present (remove from the known list):\n  ${fixed.join("\n  ")}\n` : ""),
    );
  }
  return mismatches;
}

/** The first paragraph of a property's description, whitespace collapsed. */
function firstParagraph(schema: Schema): string {
  return String(schema.description ?? "")
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, " ")
    .trim();
}

/** Properties of an object schema, gathered over its `allOf` branches. */
function propertiesOf(schema: Schema): Record<string, Schema> {
  const props: Record<string, Schema> = {};
  const collect = (s: Schema) => {
    for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      // Branches list fields as `{}` next to the typed definition: keep the described one.
      if (!props[name] || (typeof sub === "object" && sub.description)) props[name] = sub;
    }
    for (const sub of (s.allOf ?? []) as Schema[]) collect(sub);
  };
  collect(schema);
  return props;
}

const ENVELOPE_FIELDS = new Set(["result", "msg", "ignored_parameters_unsupported"]);

/**
 * Fields of an object schema the contract describes as always there: not
 * deprecated, and no presence condition ("present", "only", "if") in the
 * first paragraph of their description. Zulip's schemas rarely list
 * `required`, so this is how a missing field is caught.
 */
export function alwaysPresentFields(schema: Schema): string[] {
  return Object.entries(propertiesOf(schema))
    .filter(([name, sub]) => !ENVELOPE_FIELDS.has(name) && !sub.deprecated)
    .filter(([, sub]) => !/\b(present|only|if|when)\b/i.test(firstParagraph(sub)))
    .map(([name]) => name)
    .sort();
}

/** The converted JSON Schema of a component (`#/components/schemas/<name>`). */
export function componentSchema(name: string): Schema {
  const doc = loadContract();
  return toJsonSchema(doc, { $ref: `#/components/schemas/${name}` }) as Schema;
}

/**
 * Fails unless `obj` has every {@link alwaysPresentFields} field of the
 * component `name` (e.g. `User`, `BasicChannel`, `Subscriptions`), apart
 * from the `except` ones (each a rule of our spec that wins; say which).
 */
export function expectDocumentedFields(obj: Record<string, unknown>, name: string, except: readonly string[] = []): void {
  const missing = alwaysPresentFields(componentSchema(name)).filter((f) => !(f in obj) && !except.includes(f));
  if (missing.length) {
    throw new Error(`${name} object lacks documented fields: ${missing.join(", ")}\nobject: ${abbreviate(obj)}`);
  }
}

/** Top-level documented fields missing from a success body (see {@link alwaysPresentFields}). */
export function missingTopLevelFields(method: string, path: string, body: unknown): string[] {
  if (path === "/register") return [];
  const doc = loadContract();
  const op = doc.paths?.[path]?.[method.toLowerCase()];
  const schema = responseSchema(doc, op?.responses?.["200"]);
  if (!schema || body === null || typeof body !== "object") return [];
  const converted = toJsonSchema(doc, schema) as Schema;
  return alwaysPresentFields(converted).filter((f) => !(f in (body as object)));
}

/** Fields every `POST /register` response has, whatever was fetched (spec "Register an event queue"). */
export const REGISTER_CORE_FIELDS: readonly string[] = [
  "queue_id",
  "last_event_id",
  "zulip_feature_level",
  "zulip_version",
  "zulip_merge_base",
  "service_feature_level",
  "service_version",
  "service_merge_base",
];

/**
 * Top-level fields of `POST /register` the contract says are present for
 * these `fetch_event_types` (the response schema requires none, since the
 * set depends on the request). Read from each field's description: a first
 * paragraph "Present if `x` is present in `fetch_event_types`." (or "`x`
 * and `y` are both present") makes it expected when those types are all
 * fetched; a first paragraph with no presence condition makes it always
 * expected. Fields with any other condition (demo organizations, client
 * capabilities) and deprecated fields are left out. Clients index into
 * these fields without checking (the mobile and terminal apps crash).
 *
 * With an explicit list, only the fields conditioned on those types plus
 * {@link REGISTER_CORE_FIELDS} are returned: many newer fields (for example
 * `realm_date_created`, fetched with `realm`) omit their condition in the
 * contract, so "no condition" cannot be read as "always" for a partial fetch.
 * @param fetchEventTypes the requested types; undefined means all of them
 */
export function registerFieldsExpected(fetchEventTypes?: readonly string[]): string[] {
  const doc = loadContract();
  const schema = toJsonSchema(doc, responseSchema(doc, doc.paths["/register"].post.responses["200"])) as Schema;
  const expected: string[] = [];
  for (const [name, sub] of Object.entries(propertiesOf(schema))) {
    if (ENVELOPE_FIELDS.has(name) || sub.deprecated) continue;
    const first = firstParagraph(sub);
    const cond = /^Present if (.+?) (?:is|are both) present in `fetch_event_types`\.$/.exec(first);
    if (cond) {
      const types = [...cond[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      if (!fetchEventTypes || types.every((t) => fetchEventTypes.includes(t))) expected.push(name);
    } else if (!/\bpresent\b/i.test(first) && (!fetchEventTypes || REGISTER_CORE_FIELDS.includes(name))) {
      expected.push(name);
    }
  }
  return expected.sort();
}
