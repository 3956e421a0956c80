import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Node } from "constructs";
import { z } from "zod";
import { loadConfig } from "../shared/config.js";
import { LAMBDA_UNRESERVED_MINIMUM } from "./concurrency.js";

/**
 * The operator's deploy settings live in one JSON file beside cdk.json,
 * read by every `cdk synth`/`cdk diff`/`cdk deploy`: a plain `npx cdk deploy`
 * months later deploys the same domain, alarm subscription, table and
 * concurrency as the first one. It is git-ignored (it names the operator's
 * domain, certificate and mailbox); `deploy.config.example.json` is the
 * committed model. docs/deploying.md ("Settings") describes each key.
 */
export const DEPLOY_CONFIG_FILE = "deploy.config.json";

/** The one context key the app reads: `-c config=<file>` names another settings file (a second stack). */
export const CONFIG_FILE_CONTEXT_KEY = "config";

/** A settings file that cannot be used; the message names the file, the key and what is allowed. */
export class DeployConfigError extends Error {}

const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

/** A DNS host name of two labels or more (the `email` setting's domain). */
const HOST_NAME = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** `{ error }` for every check of one key, so that each failure says what the key allows. */
const says = (error: string) => ({ error });
const integer = (min: number, max: number) => {
  const m = says(`must be an integer from ${min} to ${max}`);
  return z.number(m).int(m).min(min, m).max(max, m);
};
const flag = () => z.boolean(says("must be true or false (a JSON boolean, not a string)"));
const matching = (pattern: RegExp, what: string) => z.string(says(`must be ${what}`)).regex(pattern, says(`must be ${what}`));

/**
 * The rate-limit variables of `shared/config.ts` (`RATE_LIMITS`,
 * `RATE_LIMIT_*`) a deployment may set; read from the runtime schema itself
 * so that a new limit there is settable here without a second list.
 */
export const RATE_LIMIT_VARIABLES: readonly string[] = Object.keys(loadConfig({})).filter((name) =>
  /^RATE_LIMITS?(_|$)/.test(name),
);

/**
 * The settings file's schema. Strict: a key it does not name fails the
 * synthesis (a misspelt `alarmEmial` would otherwise silently subscribe
 * nobody). Defaults are the stack's defaults.
 */
export const DeployConfigSchema = z
  .strictObject({
    /** CloudFormation stack name; a second stack in one account needs another name (and file). */
    stackName: matching(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, "a CloudFormation stack name (letters, digits, hyphens; a letter first)").default("Zulip"),
    /** Host of the default organization (`ROOT_DOMAIN`); unset: the API's execute-api host. */
    rootDomain: matching(
      /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/,
      "a host name such as chat.example.com",
    )
      .transform((host) => host.toLowerCase())
      .optional(),
    /** ACM certificate (in the stack's region) for `rootDomain` and `*.rootDomain`; with it the stack maps the domains. */
    certificateArn: matching(
      /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/,
      "an ACM certificate ARN (arn:aws:acm:<region>:<account>:certificate/<id>)",
    ).optional(),
    /** With a custom domain, also serve `<subdomain>.<rootDomain>` (needs a wildcard certificate). */
    orgSubdomains: flag().default(true),
    /** An existing table to adopt instead of creating one (a restored backup). */
    existingTableName: matching(/^[A-Za-z0-9_.-]{3,255}$/, "a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -)").optional(),
    /** Delete table, queues, bucket and logs with the stack: throw-away dev stacks only. */
    destroyOnRemoval: flag().default(false),
    /** `LOG_LEVEL` of every function. */
    logLevel: z.enum(LOG_LEVELS, says(`must be one of ${LOG_LEVELS.join(", ")}`)).default("info"),
    /** API stage throttling: steady requests per second. */
    apiRateLimit: z.number(says("must be a positive number")).positive(says("must be a positive number")).default(200),
    /** API stage throttling: burst size. */
    apiBurstLimit: integer(1, 5_000_000).default(400),
    /** Application rate limits: variables of `shared/config.ts` by name, checked with its schema. */
    rateLimits: z
      .record(z.string(), z.union([z.string(), z.number()], says("must be a string or a number")))
      .default({}),
    /** Address subscribed by email to the alarm topic. */
    alarmEmail: z.email(says("must be an email address")).optional(),
    /** The account's Lambda "Concurrent executions" quota in the stack's region; sizes the events reservation. */
    accountConcurrencyQuota: integer(1, 10_000_000).optional(),
    /** Executions reserved for `events` (clients connected at once); `0` none; unset: derived from the quota. */
    eventsReservedConcurrency: integer(0, 10_000_000).optional(),
    /** The most worker invocations the SQS event source runs at once (the event source's bounds). */
    workerMaxConcurrency: integer(2, 1000).default(20),
    /** Run `events` on Lambda Managed Instances. */
    eventsManagedInstances: flag().default(false),
    /** With Managed Instances: long polls per execution environment (Lambda's bounds). */
    eventsPollsPerEnvironment: integer(1, 1600).default(256),
    /** With Managed Instances: the capacity provider's most vCPUs (Lambda's bounds). */
    eventsMaxVCpus: integer(12, 15_000).default(16),
    /**
     * Incoming email to streams (Zulip's email gateway): SES receives mail
     * for `domain` (`EMAIL_GATEWAY_DOMAIN`, the domain of every stream's
     * address) and the worker posts it; `activateRuleSet: false` leaves the
     * region's active SES rule set alone (docs/deploying.md, "Incoming email").
     */
    incomingEmail: z
      .strictObject(
        {
          domain: matching(
            /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/,
            "a domain name such as chat-mail.example.com",
          ).transform((host) => host.toLowerCase()),
          activateRuleSet: flag().default(true),
        },
        says('must be {"domain": …, "activateRuleSet"?: true|false}'),
      )
      .optional(),
    /**
     * A BigBlueButton server for video calls: its API base URL
     * (`BIGBLUEBUTTON_URL`) and the name or ARN of the Secrets Manager secret
     * holding its shared secret as plain text (`BIGBLUEBUTTON_SECRET`). The
     * secret is never in this file, whose settings the template records.
     */
    bigBlueButton: z
      .strictObject(
        {
          url: z.url({ protocol: /^https$/, ...says("must be an https URL such as https://bbb.example.com/bigbluebutton/") }),
          secretName: matching(
            /^(arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:)?[A-Za-z0-9/_+=.@-]{1,512}$/,
            "the name or ARN of a Secrets Manager secret",
          ),
        },
        says('must be {"url": …, "secretName": …}'),
      )
      .optional(),
    /**
     * Mobile push notifications through Zulip's push notification service
     * (docs/deploying.md, "Mobile push notifications"): `zulipOrgId` is this
     * server's UUID there (`ZULIP_ORG_ID`; `npm run manage -- push-server-id`
     * prints a new one), `bouncerUrl` the service
     * (`PUSH_NOTIFICATION_BOUNCER_URL`). The server's key is generated into a
     * Secrets Manager secret (infra/constructs/push-notifications.ts), never in this file.
     * Unset: no secret, no daily upload, nothing sent to phones.
     */
    pushNotifications: z
      .strictObject(
        {
          bouncerUrl: z
            .url({ protocol: /^https$/, ...says("must be an https URL such as https://push.zulipchat.com") })
            .default("https://push.zulipchat.com"),
          zulipOrgId: z.uuid(says("must be a UUID (npm run manage -- push-server-id prints one)")),
        },
        says('must be {"zulipOrgId": …, "bouncerUrl"?: …}'),
      )
      .optional(),
    /**
     * Mail through Amazon SES (docs/deploying.md, "Email"): the domain to
     * verify (DKIM) and send from, and the sender address (default
     * `noreply@<domain>`). Unset: the stack has no SES resources and the
     * worker drops each email with an error in its log.
     */
    email: z
      .strictObject(
        {
          domain: matching(HOST_NAME, "a domain name such as example.com").transform((host) => host.toLowerCase()),
          fromAddress: z.email(says("must be an email address")).optional(),
        },
        says('must be {"domain": …, "fromAddress": …}'),
      )
      .optional(),
  })
  .superRefine((config, ctx) => {
    const issue = (key: string, message: string) => ctx.addIssue({ code: "custom", path: [key], message });
    if (config.certificateArn && !config.rootDomain) {
      issue("certificateArn", "needs rootDomain (the domain the certificate is for)");
    }
    const from = config.email?.fromAddress;
    if (config.email && from && !mailHostIsWithin(from, config.email.domain)) {
      ctx.addIssue({
        code: "custom",
        path: ["email", "fromAddress"],
        message: `must be an address at ${config.email.domain} (the identity SES verifies)`,
      });
    }
    for (const [name, value] of Object.entries(config.rateLimits)) {
      if (!RATE_LIMIT_VARIABLES.includes(name)) {
        ctx.addIssue({ code: "custom", path: ["rateLimits", name], message: `is no rate-limit variable (allowed: ${RATE_LIMIT_VARIABLES.join(", ")})` });
        continue;
      }
      try {
        loadConfig({ [name]: String(value) });
      } catch (error) {
        const message = (error as { issues?: { message: string }[] }).issues?.[0]?.message ?? String(error);
        ctx.addIssue({ code: "custom", path: ["rateLimits", name], message: `is refused by shared/config.ts (${message})` });
      }
    }
    const { accountConcurrencyQuota: quota, eventsReservedConcurrency: reserved } = config;
    // Lambda refuses a reservation that leaves less than 100 of the quota unreserved: the deploy would fail.
    if (quota !== undefined && reserved !== undefined && reserved > 0 && reserved > quota - LAMBDA_UNRESERVED_MINIMUM) {
      issue(
        "eventsReservedConcurrency",
        `${reserved} needs an account concurrency quota of at least ${reserved + LAMBDA_UNRESERVED_MINIMUM} (Lambda keeps ` +
          `${LAMBDA_UNRESERVED_MINIMUM} unreserved) and accountConcurrencyQuota is ${quota}: ask AWS for ` +
          `${reserved + LAMBDA_UNRESERVED_MINIMUM} or more (Service Quotas, AWS Lambda, "Concurrent executions"), ` +
          `or set eventsReservedConcurrency to ${Math.max(0, quota - LAMBDA_UNRESERVED_MINIMUM)} or less`,
      );
    }
  });

/**
 * Whether an address is at `domain` itself (case-insensitive): SES then
 * authorizes its sends against the domain's identity, which is what the
 * worker is granted.
 */
function mailHostIsWithin(address: string, domain: string): boolean {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase() === domain;
}

/** The sender address of the `email` setting: `fromAddress`, else `noreply@<domain>`. */
export function emailFromAddress(email: NonNullable<DeployConfig["email"]>): string {
  return email.fromAddress ?? `noreply@${email.domain}`;
}

/** The settings as the file gives them (what the schema accepts). */
export type DeployConfigInput = z.input<typeof DeployConfigSchema>;
/** The settings with every default applied. */
export type DeployConfig = z.output<typeof DeployConfigSchema>;

/**
 * Checks settings against {@link DeployConfigSchema}.
 * @param raw the parsed JSON of the file (`{}` for no file)
 * @param source the file's name, for messages
 * @throws DeployConfigError listing every bad key: `<source>: "<key>" <what it allows>, got <value>`,
 *   or `<source>: unknown key "<key>" (allowed: …)`
 */
export function parseDeployConfig(raw: unknown, source = DEPLOY_CONFIG_FILE): DeployConfig {
  const result = DeployConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  const allowed = Object.keys(DeployConfigSchema.shape).join(", ");
  const lines = result.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => `unknown key "${key}" (allowed: ${allowed})`).join("\n");
    }
    if (issue.path.length === 0) return `must be a JSON object of settings, got ${JSON.stringify(raw)}`;
    const value = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], raw);
    return `"${issue.path.join(".")}" ${issue.message}, got ${JSON.stringify(value)}`;
  });
  throw new DeployConfigError(lines.map((line) => `${source}: ${line}`).join("\n"));
}

/**
 * Every key of the settings file, plus the rate-limit variables: none of
 * them may come as CDK context (`-c key=value`, `cdk.json`,
 * `cdk.context.json`), because a later deploy without the flag would
 * silently drop it.
 */
export function settingNames(): string[] {
  return [...Object.keys(DeployConfigSchema.shape), ...RATE_LIMIT_VARIABLES];
}

/**
 * Reads the operator's settings for the CDK app: `deploy.config.json` in
 * `root` (the directory `cdk` runs in: the project root, beside cdk.json),
 * or the file `-c config=<path>` names (relative to `root`). No file (and
 * no `config`): every default.
 * @returns the settings, and the file they came from (undefined: defaults)
 * @throws DeployConfigError when a setting comes as context, the named file is missing,
 *   the file is not JSON, or a key is unknown or malformed
 */
export function loadDeployConfig(node: Node, root: string = process.cwd()): { config: DeployConfig; file?: string } {
  for (const name of settingNames()) {
    if (node.tryGetContext(name) !== undefined) {
      throw new DeployConfigError(
        `"${name}" came as CDK context (-c ${name}=…, cdk.json or cdk.context.json). Deploy settings are read ` +
          `from ${DEPLOY_CONFIG_FILE} only, so that every later deploy keeps them: remove it from the context and ` +
          `put it in ${DEPLOY_CONFIG_FILE}${RATE_LIMIT_VARIABLES.includes(name) ? ` under "rateLimits"` : ""} ` +
          `(docs/deploying.md, "Settings").`,
      );
    }
  }
  const named = node.tryGetContext(CONFIG_FILE_CONTEXT_KEY) as unknown;
  if (named !== undefined && (typeof named !== "string" || named === "")) {
    throw new DeployConfigError(`-c ${CONFIG_FILE_CONTEXT_KEY}= must name a settings file, got ${JSON.stringify(named)}`);
  }
  const file = path.resolve(root, named ?? DEPLOY_CONFIG_FILE);
  const shown = path.relative(root, file) || file;
  if (!existsSync(file)) {
    if (named !== undefined) throw new DeployConfigError(`-c ${CONFIG_FILE_CONTEXT_KEY}=${named}: there is no file ${file}`);
    return { config: parseDeployConfig({}) };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new DeployConfigError(`${shown}: not valid JSON (${(error as Error).message})`);
  }
  return { config: parseDeployConfig(raw, shown), file: shown };
}
