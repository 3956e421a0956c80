/**
 * An offline linter of synthesized CloudFormation templates, for the checks
 * CloudFormation itself makes when it receives a template (the ones cfn-lint
 * reports as E1xxx/E3xxx/E6xxx), without AWS credentials or Python:
 *
 * 1. The template's anatomy, as a JSON schema checked with ajv: the allowed
 *    top-level sections; each parameter's `Type` and attributes; each
 *    condition a condition function; each resource's attributes
 *    (`DeletionPolicy`, ...); each output a `Value` with a *literal string*
 *    `Description` (CloudFormation refuses an intrinsic function there);
 *    logical IDs alphanumeric; CloudFormation's counts (500 resources,
 *    200 outputs and parameters).
 * 2. References: every `Ref`, `Fn::GetAtt` (with the attribute existing on
 *    the target's type), `DependsOn` and `Condition` names something that
 *    exists.
 * 3. Each resource's `Properties` against its type's schema in CDK's own
 *    database of CloudFormation resource specifications
 *    (`@aws-cdk/aws-service-spec`, built from the CloudFormation registry
 *    schemas): no unknown property names, every required property present,
 *    primitive types and allowed values where the value is a literal (a
 *    value that is an intrinsic function is only resolved at deploy time and
 *    is not checked).
 */
import { loadAwsServiceSpecSync } from "@aws-cdk/aws-service-spec";
import type { Property, PropertyType, Resource, SpecDatabase } from "@aws-cdk/service-spec-types";
import { Ajv, type ErrorObject } from "ajv";

/** One thing CloudFormation would refuse, found by {@link lintTemplate}. */
export interface TemplateProblem {
  /** Where in the template, e.g. `Outputs.RootDomainTarget.Description`. */
  path: string;
  message: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The pseudo parameters `Ref` may name besides parameters and resources. */
const PSEUDO_PARAMETERS = new Set([
  "AWS::AccountId",
  "AWS::NotificationARNs",
  "AWS::NoValue",
  "AWS::Partition",
  "AWS::Region",
  "AWS::StackId",
  "AWS::StackName",
  "AWS::URLSuffix",
]);

/** Resource types that have no schema: custom resources and CDK's own metadata. */
const SCHEMALESS_TYPE = /^(Custom::[A-Za-z0-9_@-]+|AWS::CloudFormation::CustomResource|AWS::CDK::Metadata)$/;

const LOGICAL_ID = "^[A-Za-z0-9]{1,255}$";

/** A single-key object whose key is an intrinsic function or `Ref`. */
const INTRINSIC_KEY = /^(Ref|Condition|Fn::[A-Za-z0-9]+)$/;

/** Parameter types CloudFormation accepts (plain, list, AWS-specific and SSM-parameter types). */
const PARAMETER_TYPE =
  "^(String|Number|List<Number>|CommaDelimitedList|AWS::[A-Za-z0-9:]+::[A-Za-z0-9:.]+|List<AWS::[A-Za-z0-9:]+::[A-Za-z0-9:.]+>|AWS::SSM::Parameter::Value<[^>]+>|AWS::SSM::Parameter::Name)$";

/** The template anatomy (CloudFormation User Guide, "Template anatomy" and its section references). */
const TEMPLATE_SCHEMA = {
  type: "object",
  required: ["Resources"],
  additionalProperties: false,
  properties: {
    AWSTemplateFormatVersion: { enum: ["2010-09-09"] },
    Description: { type: "string", maxLength: 1024 },
    Metadata: { type: "object" },
    Transform: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }, { type: "object" }] },
    Parameters: {
      type: "object",
      maxProperties: 200,
      propertyNames: { pattern: LOGICAL_ID },
      additionalProperties: {
        type: "object",
        required: ["Type"],
        additionalProperties: false,
        properties: {
          Type: { type: "string", pattern: PARAMETER_TYPE },
          Default: { type: ["string", "number", "array"] },
          AllowedValues: { type: "array" },
          AllowedPattern: { type: "string" },
          ConstraintDescription: { type: "string" },
          Description: { type: "string", maxLength: 4000 },
          MaxLength: { type: ["integer", "string"] },
          MinLength: { type: ["integer", "string"] },
          MaxValue: { type: ["number", "string"] },
          MinValue: { type: ["number", "string"] },
          NoEcho: { type: ["boolean", "string"] },
        },
      },
    },
    Rules: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["Assertions"],
        additionalProperties: false,
        properties: {
          RuleCondition: { type: "object" },
          Assertions: {
            type: "array",
            items: {
              type: "object",
              required: ["Assert"],
              additionalProperties: false,
              properties: { Assert: { type: "object" }, AssertDescription: { type: "string" } },
            },
          },
        },
      },
    },
    Mappings: { type: "object", additionalProperties: { type: "object", additionalProperties: { type: "object" } } },
    Conditions: {
      type: "object",
      propertyNames: { pattern: LOGICAL_ID },
      additionalProperties: {
        type: "object",
        minProperties: 1,
        maxProperties: 1,
        propertyNames: { enum: ["Fn::And", "Fn::Equals", "Fn::Not", "Fn::Or", "Condition"] },
      },
    },
    Resources: {
      type: "object",
      minProperties: 1,
      maxProperties: 500,
      propertyNames: { pattern: LOGICAL_ID },
      additionalProperties: {
        type: "object",
        required: ["Type"],
        additionalProperties: false,
        properties: {
          Type: { type: "string" },
          Properties: { type: "object" },
          DependsOn: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
          DeletionPolicy: { enum: ["Delete", "Retain", "RetainExceptOnCreate", "Snapshot"] },
          UpdateReplacePolicy: { enum: ["Delete", "Retain", "Snapshot"] },
          Condition: { type: "string" },
          Metadata: { type: "object" },
          CreationPolicy: { type: "object" },
          UpdatePolicy: { type: "object" },
        },
      },
    },
    Outputs: {
      type: "object",
      maxProperties: 200,
      propertyNames: { pattern: LOGICAL_ID },
      additionalProperties: {
        type: "object",
        required: ["Value"],
        additionalProperties: false,
        properties: {
          // A literal: CloudFormation rejects a template whose output description is a function.
          Description: { type: "string", maxLength: 1024 },
          Value: { type: ["string", "number", "boolean", "object"] },
          Export: {
            type: "object",
            required: ["Name"],
            additionalProperties: false,
            properties: { Name: { type: ["string", "object"] } },
          },
          Condition: { type: "string" },
        },
      },
    },
  },
} as const;

let spec: SpecDatabase | undefined;
let anatomy: ReturnType<Ajv["compile"]> | undefined;

/** CDK's resource specification database (about a second to load; loaded once per process). */
function specDatabase(): SpecDatabase {
  spec ??= loadAwsServiceSpecSync();
  return spec;
}

/**
 * Loads the resource specifications and compiles the anatomy schema, which
 * the first {@link lintTemplate} call would otherwise do: for a test's
 * `beforeAll`, whose timeout suits a slow start.
 */
export function prepareTemplateLinter(): void {
  specDatabase();
  anatomySchema();
}

function anatomySchema(): ReturnType<Ajv["compile"]> {
  anatomy ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(TEMPLATE_SCHEMA);
  return anatomy;
}

/**
 * Lints a synthesized template (the JSON `cdk synth` writes, or
 * `Template.toJSON()`).
 * @returns every problem found; empty when the template passes
 */
export function lintTemplate(template: Record<string, unknown>): TemplateProblem[] {
  const anatomy = anatomySchema();
  const problems: TemplateProblem[] = [];
  if (!anatomy(template)) {
    // A `propertyNames` error only repeats the failure of its inner schema, reported on its own.
    problems.push(...(anatomy.errors ?? []).filter((e) => e.keyword !== "propertyNames").map(ajvProblem));
  }
  const t = template as JsonObject;
  const resources = isObject(t.Resources) ? t.Resources : {};
  const parameters = isObject(t.Parameters) ? t.Parameters : {};
  const conditions = isObject(t.Conditions) ? t.Conditions : {};
  const db = specDatabase();
  const typeOf = (id: string): Resource | undefined => {
    const resource = resources[id];
    const type = isObject(resource) ? resource.Type : undefined;
    if (typeof type !== "string" || SCHEMALESS_TYPE.test(type)) return undefined;
    return db.lookup("resource", "cloudFormationType", "equals", type)[0];
  };

  checkReferences(t, { resources, parameters, conditions, typeOf }, problems);
  for (const [id, resource] of Object.entries(resources)) {
    if (!isObject(resource) || typeof resource.Type !== "string" || SCHEMALESS_TYPE.test(resource.Type)) continue;
    const type = typeOf(id);
    if (!type) {
      problems.push({ path: `Resources.${id}.Type`, message: `unknown resource type ${resource.Type}` });
      continue;
    }
    const properties = resource.Properties ?? {};
    if (!isObject(properties)) continue; // the anatomy schema reported it
    checkObject(db, type.properties, properties, `Resources.${id}.Properties`, problems);
  }
  return problems;
}

/** A problem from an ajv error; a bad name (`propertyNames`) is reported at the name. */
function ajvProblem(error: ErrorObject): TemplateProblem {
  const segments = error.instancePath.split("/").slice(1);
  if (error.propertyName !== undefined) segments.push(error.propertyName);
  const path = segments.join(".");
  const extra = error.keyword === "additionalProperties" ? ` (${String(error.params.additionalProperty)})` : "";
  const allowed = error.keyword === "enum" ? ` (${(error.params.allowedValues as unknown[]).join(", ")})` : "";
  return { path: path || "(template)", message: `${error.message ?? error.keyword}${extra}${allowed}` };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An intrinsic function call (`{ "Fn::Join": ... }`, `{ Ref: ... }`): its value is only known at deploy time. */
function isIntrinsic(value: Json): boolean {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && INTRINSIC_KEY.test(keys[0]!);
}

interface Names {
  resources: JsonObject;
  parameters: JsonObject;
  conditions: JsonObject;
  typeOf: (id: string) => Resource | undefined;
}

/** Every `Ref`, `Fn::GetAtt`, `DependsOn` and `Condition` (by name) points at something in the template. */
function checkReferences(t: JsonObject, names: Names, problems: TemplateProblem[]): void {
  const { resources, parameters, conditions, typeOf } = names;
  const walk = (value: Json, path: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}.${i}`));
    if (!isObject(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (key === "Ref" && typeof inner === "string") {
        if (!(inner in resources) && !(inner in parameters) && !PSEUDO_PARAMETERS.has(inner)) {
          problems.push({ path: at, message: `Ref to ${inner}, which is no resource, parameter or pseudo parameter` });
        }
      } else if (key === "Fn::GetAtt") {
        const [target, attribute] = Array.isArray(inner) ? inner : String(inner).split(/\.(.*)/);
        if (typeof target !== "string" || !(target in resources)) {
          problems.push({ path: at, message: `Fn::GetAtt of ${String(target)}, which is no resource` });
        } else if (typeof attribute === "string") {
          const type = typeOf(target);
          if (type && !(attribute in type.attributes)) {
            problems.push({ path: at, message: `${type.cloudFormationType} has no attribute ${attribute}` });
          }
        }
      } else if (key === "Condition" && typeof inner === "string" && path.split(".").length > 2) {
        if (!(inner in conditions)) problems.push({ path: at, message: `condition ${inner} is not defined` });
      }
      walk(inner, at);
    }
  };
  for (const section of ["Resources", "Outputs", "Conditions", "Rules"]) {
    if (isObject(t[section])) walk(t[section], section);
  }
  for (const [id, resource] of Object.entries(resources)) {
    if (!isObject(resource)) continue;
    const dependsOn = resource.DependsOn;
    for (const target of Array.isArray(dependsOn) ? dependsOn : dependsOn === undefined ? [] : [dependsOn]) {
      if (typeof target === "string" && !(target in resources)) {
        problems.push({ path: `Resources.${id}.DependsOn`, message: `depends on ${target}, which is no resource` });
      }
    }
  }
  for (const section of ["Resources", "Outputs"]) {
    for (const [id, owner] of Object.entries(isObject(t[section]) ? t[section] : {})) {
      if (isObject(owner) && typeof owner.Condition === "string" && !(owner.Condition in conditions)) {
        problems.push({ path: `${section}.${id}.Condition`, message: `condition ${owner.Condition} is not defined` });
      }
    }
  }
}

/** Checks an object against a property map of the spec: names, required ones, then each value. */
function checkObject(
  db: SpecDatabase,
  properties: Record<string, Property>,
  value: JsonObject,
  path: string,
  problems: TemplateProblem[],
): void {
  for (const [name, property] of Object.entries(properties)) {
    if (property.required && !(name in value)) problems.push({ path, message: `required property ${name} is missing` });
  }
  for (const [name, inner] of Object.entries(value)) {
    const property = properties[name];
    if (!property) {
      problems.push({ path: `${path}.${name}`, message: "unknown property" });
      continue;
    }
    checkValue(db, [property.type, ...(property.previousTypes ?? [])], inner, `${path}.${name}`, problems);
  }
}

/**
 * Checks one value against the property's type (or any of its earlier types,
 * which CloudFormation still accepts). Literals only: intrinsic functions pass.
 */
function checkValue(db: SpecDatabase, types: PropertyType[], value: Json, path: string, problems: TemplateProblem[]): void {
  if (isIntrinsic(value)) return;
  let best: TemplateProblem[] | undefined;
  for (const type of types) {
    const found: TemplateProblem[] = [];
    checkOneType(db, type, value, path, found);
    if (found.length === 0) return;
    if (!best || found.length < best.length) best = found;
  }
  problems.push(...(best ?? []));
}

function checkOneType(db: SpecDatabase, type: PropertyType, value: Json, path: string, problems: TemplateProblem[]): void {
  const mismatch = (expected: string): void => {
    const got = `${Array.isArray(value) ? "array" : typeof value} ${JSON.stringify(value).slice(0, 60)}`;
    problems.push({ path, message: `expected ${expected}, got ${got}` });
  };
  switch (type.type) {
    case "string":
    case "date-time":
      if (typeof value !== "string") return mismatch("a string");
      if (type.type === "string" && type.allowedValues?.length && !type.allowedValues.includes(value)) {
        problems.push({ path, message: `${JSON.stringify(value)} is not one of ${type.allowedValues.join(", ")}` });
      }
      return;
    case "number":
      // CloudFormation reads numbers given as strings.
      if (typeof value !== "number" && !(typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))) {
        mismatch("a number");
      }
      return;
    case "integer": {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (!Number.isInteger(n)) return mismatch("an integer");
      if (type.allowedValues?.length && !type.allowedValues.includes(n as number)) {
        problems.push({ path, message: `${String(n)} is not one of ${type.allowedValues.join(", ")}` });
      }
      return;
    }
    case "boolean":
      if (typeof value !== "boolean" && value !== "true" && value !== "false") mismatch("a boolean");
      return;
    case "json":
      return;
    case "null":
      if (value !== null) mismatch("null");
      return;
    case "tag":
      if (!isObject(value)) return mismatch("a tag {Key, Value}");
      checkObject(db, TAG_PROPERTIES, value, path, problems);
      return;
    case "array":
      if (!Array.isArray(value)) return mismatch("a list");
      value.forEach((item, i) => checkValue(db, [type.element], item, `${path}.${i}`, problems));
      return;
    case "map":
      if (!isObject(value)) return mismatch("a map");
      for (const [key, item] of Object.entries(value)) checkValue(db, [type.element], item, `${path}.${key}`, problems);
      return;
    case "union":
      checkValue(db, type.types, value, path, problems);
      return;
    case "ref": {
      if (!isObject(value)) return mismatch("an object");
      checkObject(db, db.get("typeDefinition", type.reference).properties, value, path, problems);
      return;
    }
  }
}

const TAG_PROPERTIES: Record<string, Property> = {
  Key: { type: { type: "string" }, required: true },
  Value: { type: { type: "string" }, required: true },
};
