/**
 * `npm run manage -- <command> [options]`: the management CLI, for what the
 * API cannot do (create an organization) or should not need (a first
 * account, a lost API key). It calls the same actions as the API, so input
 * is refused with the same words and the same events go out.
 *
 *   create-realm --subdomain S --name N --owner-email E --owner-name F [--password P] [--demo] [--zuliprc PATH]
 *   create-user  --realm S --email E --name F --role owner|admin|moderator|member|guest [--password P] [--bot] [--zuliprc PATH]
 *   rotate-api-key --realm S --email E
 *   list-users   --realm S
 *   deactivate-realm --realm S
 *   reactivate-realm --realm S
 *   delete-expired-demos
 *   import <tarball or files-bucket key> --subdomain S
 *   register-push-server --contact-email E [--hostname H] --agree-to-terms-of-service [--rotate-key]
 *   push-server-id
 *
 * `--realm` / `--subdomain` take the organization's subdomain (`""` for the
 * default organization). `--local` talks to DynamoDB Local at
 * http://127.0.0.1:8000, table `zulip` (what `npm start` runs).
 * `--stack-name NAME` reads a deployed stack's outputs (its table, host and
 * region; scripts/stack-outputs.ts); so does a run with neither `--local`,
 * `TABLE_NAME` nor `DYNAMODB_ENDPOINT`, for the default stack `Zulip`.
 * Otherwise the configuration comes from the environment (`TABLE_NAME`,
 * `AWS_REGION`, `DYNAMODB_ENDPOINT`, …, see `shared/config.ts`).
 *
 * The module exports {@link main} for tests and only runs itself when it is
 * the process's entry point.
 */
import { realpathSync } from "node:fs";
import { access, constants } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { doCreateRealm } from "../shared/actions/realms/create-realm.js";
import { doDeactivateRealm, doReactivateRealm } from "../shared/actions/realms/deactivate-realm.js";
import { doDeleteExpiredDemoOrganizations } from "../shared/actions/realms/demo-organizations.js";
import { doImportRealm, importSourceOf } from "../shared/actions/realms/realm-import.js";
import { checkCreateUser } from "../shared/actions/users/create-user.js";
import { doRegenerateApiKey } from "../shared/actions/users/regenerate-api-key.js";
import { checkFullName, isStrongEnoughPassword } from "../shared/actions/users/validation.js";
import type { Config } from "../shared/config.js";
import { writeZuliprc } from "../infra/local/bootstrap.js";
import type { Deps, WorkerDeps } from "../shared/deps.js";
import { cliConfig, cliDeps, LOCAL_ENV } from "./cli-deps.js";
import { PushCommandError, PUSH_SERVICE_TERMS_URL, pushServerId, registerPushServer } from "./manage-push.js";
import type { SecretReader } from "./push-secret.js";

export { cliConfig, cliDeps, LOCAL_ENV } from "./cli-deps.js";
import type { RealmRecord } from "../shared/data/records/realm.js";
import { realmBySubdomain } from "../shared/data/realms.js";
import { listRealmUsers, userByEmail } from "../shared/data/users.js";
import { isValidEmailAddress, realmUrl } from "../shared/domain/email.js";
import { BotType, Role } from "../shared/domain/roles.js";
import { JsonableError } from "../shared/errors.js";
import { cliEnvironment, DEFAULT_STACK_NAME, StackLookupError, type CloudFormationReader } from "./stack-outputs.js";

/** Role names the CLI accepts, and the names `list-users` prints. */
export const ROLE_NAMES: Readonly<Record<string, number>> = {
  owner: Role.OWNER,
  admin: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};

/** The CLI's help text (`--help`, and after a usage error). */
export const MANAGE_USAGE = `Usage: npm run manage -- <command> [--local | --stack-name NAME] [options]

Commands:
  create-realm   --subdomain S --name N --owner-email E --owner-name F [--password P] [--demo] [--zuliprc PATH]
  create-user    --realm S --email E --name F --role owner|admin|moderator|member|guest [--password P] [--bot] [--zuliprc PATH]
  rotate-api-key --realm S --email E
  list-users     --realm S
  deactivate-realm --realm S
  reactivate-realm --realm S
  delete-expired-demos   delete the demo organizations whose scheduled deletion date has passed
  import PATH-OR-KEY --subdomain S   restore a data export (a .tar.gz file, or its key or export_url in the
                 files bucket) into a new organization; users get new API keys and no password
  register-push-server --contact-email E [--hostname H] --agree-to-terms-of-service [--rotate-key]
                 register with the mobile push notification service (terms: ${PUSH_SERVICE_TERMS_URL}), then
                 report the organizations to it
  push-server-id print a new UUID for the pushNotifications.zulipOrgId deploy setting

--zuliprc PATH writes the new account's site, email and API key there (mode 600).
--local uses DynamoDB Local at ${LOCAL_ENV.DYNAMODB_ENDPOINT} (table ${LOCAL_ENV.TABLE_NAME}), as started by npm start.
--stack-name NAME uses the table, host and region of that deployed stack (its CloudFormation outputs);
without --local, TABLE_NAME and DYNAMODB_ENDPOINT, the stack ${DEFAULT_STACK_NAME}. ROOT_DOMAIN in the
environment overrides the stack's host. Otherwise TABLE_NAME, AWS_REGION, DYNAMODB_ENDPOINT, ROOT_DOMAIN
come from the environment.`;

/** Injected for tests: dependencies and where output goes. */
export interface ManageIo {
  /** Use these dependencies instead of building them from `--local` or the environment. */
  deps?: Deps;
  /** @default process.env */
  env?: Record<string, string | undefined>;
  /** @default console.log */
  out?: (line: string) => void;
  /** @default console.error */
  err?: (line: string) => void;
  /** Reads the stack's outputs; @default a CloudFormation client in the environment's region */
  cloudFormation?: CloudFormationReader;
  /** Reads the push notification service's secret of a deployed stack; @default Secrets Manager (scripts/push-secret.ts) */
  readSecret?: SecretReader;
}

/** The API's own host (`<api-id>.execute-api.<region>.amazonaws.com[.cn]`), a stack's host without a custom domain. */
const EXECUTE_API_HOST = /^[a-z0-9]+\.execute-api\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** A refusal of the CLI's input: printed as `error: <message>`, exit status 1. */
export class UsageError extends Error {}

const OPTIONS = {
  local: { type: "boolean" },
  "stack-name": { type: "string" },
  zuliprc: { type: "string" },
  help: { type: "boolean", short: "h" },
  subdomain: { type: "string" },
  realm: { type: "string" },
  name: { type: "string" },
  "owner-email": { type: "string" },
  "owner-name": { type: "string" },
  email: { type: "string" },
  role: { type: "string" },
  password: { type: "string" },
  bot: { type: "boolean" },
  demo: { type: "boolean" },
  "contact-email": { type: "string" },
  hostname: { type: "string" },
  "agree-to-terms-of-service": { type: "boolean" },
  "rotate-key": { type: "boolean" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

function required(values: Values, name: keyof Values & string): string {
  const v = values[name];
  if (typeof v !== "string") throw new UsageError(`--${name} is required`);
  return v;
}

function only(values: Values, command: string, allowed: string[]): void {
  const extra = Object.keys(values).filter((k) => !["local", "help", "stack-name", ...allowed].includes(k));
  if (extra.length) throw new UsageError(`${command} does not take --${extra[0]}`);
}

async function existingRealm(deps: Deps, subdomain: string): Promise<RealmRecord> {
  const realm = await realmBySubdomain(deps, subdomain);
  if (!realm) throw new UsageError(`no organization with subdomain '${subdomain}'`);
  return realm;
}

/** Subdomains: lower-case letters, digits and inner hyphens (Zulip's rule), or `""` for the default organization. */
function checkSubdomain(subdomain: string): string {
  const s = subdomain.trim().toLowerCase();
  if (s !== "" && !/^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$/.test(s)) {
    throw new UsageError(`invalid subdomain '${subdomain}': use lower-case letters, digits and hyphens`);
  }
  return s;
}

function roleName(role: number): string {
  return Object.entries(ROLE_NAMES).find(([, v]) => v === role)?.[0] ?? String(role);
}

/** Left-aligned columns separated by two spaces. */
export function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(header), ...rows.map(line)];
}

/** With `--zuliprc PATH`: refuses a path in a directory the CLI cannot write, before the account is created. */
async function checkZuliprcPath(values: Values): Promise<void> {
  if (values.zuliprc === undefined) return;
  try {
    await access(dirname(values.zuliprc), constants.W_OK);
  } catch {
    throw new UsageError(`cannot write --zuliprc ${values.zuliprc}: its directory does not exist or is not writable`);
  }
}

/** With `--zuliprc PATH`: writes the new account's credentials there and says so. */
async function writeZuliprcOption(
  values: Values,
  creds: { site: string; email: string; apiKey: string },
  out: (line: string) => void,
): Promise<void> {
  if (values.zuliprc === undefined) return;
  await writeZuliprc(values.zuliprc, creds);
  out(`zuliprc: ${values.zuliprc} (site ${creds.site})`);
}

async function run(command: string, values: Values, deps: Deps, out: (line: string) => void, args: string[] = []): Promise<void> {
  if (command !== "import" && args.length > 0) throw new UsageError(`unexpected argument '${args[0]}'`);
  switch (command) {
    case "create-realm": {
      only(values, command, ["subdomain", "name", "owner-email", "owner-name", "password", "demo", "zuliprc"]);
      await checkZuliprcPath(values);
      const subdomain = checkSubdomain(required(values, "subdomain"));
      // `<sub>.<id>.execute-api...` has no DNS name or certificate: such an organization would be unreachable.
      if (subdomain !== "" && EXECUTE_API_HOST.test(deps.config.ROOT_DOMAIN)) {
        throw new UsageError(
          `${deps.config.ROOT_DOMAIN} serves only the default organization (--subdomain ""); ` +
            "deploy with rootDomain and certificateArn for others (docs/deploying.md)",
        );
      }
      const name = required(values, "name").trim();
      if (!name) throw new UsageError("--name must not be empty");
      const email = required(values, "owner-email").trim();
      if (!isValidEmailAddress(email)) throw new UsageError(`invalid email address '${email}'`);
      const ownerName = checkFullName(required(values, "owner-name"));
      const password = values.password;
      if (password !== undefined && !isStrongEnoughPassword(password)) throw new JsonableError("The password is too weak.");
      const { realm, owner } = await doCreateRealm(deps, {
        string_id: subdomain,
        name,
        owner: { email, full_name: ownerName, password },
        demo: values.demo ?? false,
      });
      out(`Created organization '${realm.name}' (id ${realm.id}) at ${realmUrl(realm, deps.config)}`);
      const deletion = realm.demo_organization_scheduled_deletion_date;
      if (deletion !== undefined) out(`Demo organization: deleted on ${new Date(deletion * 1000).toISOString()} unless converted`);
      out(`Owner: ${owner.full_name} <${owner.delivery_email}> (user id ${owner.user_id})`);
      out(`API key: ${owner.api_key}`);
      await writeZuliprcOption(values, { site: realmUrl(realm, deps.config), email: owner.delivery_email, apiKey: owner.api_key }, out);
      return;
    }
    case "create-user": {
      only(values, command, ["realm", "email", "name", "role", "password", "bot", "zuliprc"]);
      await checkZuliprcPath(values);
      const realm = await existingRealm(deps, required(values, "realm"));
      const roleArg = required(values, "role");
      const role = ROLE_NAMES[roleArg];
      if (role === undefined) {
        throw new UsageError(`invalid role '${roleArg}': use one of ${Object.keys(ROLE_NAMES).join(", ")}`);
      }
      const user = await checkCreateUser(deps, realm, {
        email: required(values, "email"),
        full_name: required(values, "name"),
        role,
        password: values.password,
        ...(values.bot ? { is_bot: true, bot_type: BotType.DEFAULT, bot_owner_id: null } : {}),
      });
      out(`Created ${user.is_bot ? "bot" : roleName(user.role)} ${user.full_name} <${user.delivery_email}> (user id ${user.user_id})`);
      out(`API key: ${user.api_key}`);
      await writeZuliprcOption(values, { site: realmUrl(realm, deps.config), email: user.delivery_email, apiKey: user.api_key }, out);
      return;
    }
    case "rotate-api-key": {
      only(values, command, ["realm", "email"]);
      const realm = await existingRealm(deps, required(values, "realm"));
      const email = required(values, "email");
      const user = await userByEmail(deps, realm.id, email);
      if (!user) throw new UsageError(`no user with email '${email}' in this organization`);
      out(await doRegenerateApiKey(deps, realm, user));
      return;
    }
    case "list-users": {
      only(values, command, ["realm"]);
      const realm = await existingRealm(deps, required(values, "realm"));
      const users = await listRealmUsers(deps, realm.id, { consistent: true });
      const rows = users.map((u) => [
        String(u.user_id),
        u.delivery_email,
        u.full_name,
        u.is_bot ? `${roleName(u.role)} (bot)` : roleName(u.role),
        u.is_active ? "yes" : "no",
      ]);
      for (const line of formatTable(["id", "email", "name", "role", "active"], rows)) out(line);
      return;
    }
    case "deactivate-realm":
    case "reactivate-realm": {
      only(values, command, ["realm"]);
      const realm = await existingRealm(deps, required(values, "realm"));
      const deactivate = command === "deactivate-realm";
      const changed = deactivate ? await doDeactivateRealm(deps, realm) : await doReactivateRealm(deps, realm);
      const state = deactivate ? "deactivated" : "active";
      out(changed ? `Organization '${realm.name}' is now ${state}` : `Organization '${realm.name}' was already ${state}`);
      return;
    }
    case "delete-expired-demos": {
      only(values, command, []);
      const { started, staleEntries } = await doDeleteExpiredDemoOrganizations(deps);
      for (const realm of started) out(`Deleting demo organization '${realm.name}' (id ${realm.id}, subdomain '${realm.string_id}')`);
      out(`${started.length} expired demo organization(s) being deleted; ${staleEntries} stale schedule entries removed`);
      return;
    }
    case "import": {
      only(values, command, ["subdomain"]);
      if (args.length !== 1) throw new UsageError("import takes one archive: a .tar.gz file or a files-bucket key");
      const subdomain = checkSubdomain(required(values, "subdomain"));
      if (!("files" in deps)) throw new UsageError("import needs the files bucket (FILES_BUCKET)");
      const result = await doImportRealm(deps as WorkerDeps, await importSourceOf(args[0]!), subdomain);
      const { realm, owner } = result;
      out(`Imported organization '${realm.name}' (id ${realm.id}) at ${realmUrl(realm, deps.config)}`);
      const skipped = result.skippedMessages > 0 ? ` (${result.skippedMessages} skipped: not to a channel, or sender not in the archive)` : "";
      out(`${result.users} users, ${result.streams} channels, ${result.messages} messages${skipped}, ${result.attachments} files, ${result.emoji} custom emoji`);
      out("Users have new API keys and no password: each resets it with \"Forgot your password?\", or an owner sets one.");
      if (owner) out(`Owner: ${owner.full_name} <${owner.delivery_email}> (user id ${owner.user_id})`);
      else out("The archive has no active owner: make one with create-user --role owner.");
      return;
    }
    case "register-push-server": {
      only(values, command, ["contact-email", "hostname", "agree-to-terms-of-service", "rotate-key"]);
      const options = {
        contactEmail: values["contact-email"],
        hostname: values.hostname,
        agreeToTermsOfService: values["agree-to-terms-of-service"] ?? false,
        rotateKey: values["rotate-key"] ?? false,
      };
      await registerPushServer(deps, options, out).catch((e: unknown) => {
        throw e instanceof PushCommandError ? new UsageError(e.message) : e;
      });
      return;
    }
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

/**
 * Runs one CLI command.
 * @param argv the arguments after the script name, e.g. `["list-users", "--realm", ""]`
 * @returns the process exit status: 0 on success, 1 on bad input or a refused action
 */
export async function main(argv: string[], io: ManageIo = {}): Promise<number> {
  const out = io.out ?? ((line: string) => console.log(line));
  const err = io.err ?? ((line: string) => console.error(line));
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (e) {
    err(`error: ${(e as Error).message}`);
    err(MANAGE_USAGE);
    return 1;
  }
  if (values.help || positionals.length === 0) {
    (values.help ? out : err)(MANAGE_USAGE);
    return values.help ? 0 : 1;
  }
  if (positionals.length > 1 && positionals[0] !== "import") {
    err(`error: unexpected argument '${positionals[1]}'`);
    return 1;
  }
  // Needs no deployment: the UUID goes into the deploy settings before there is a stack.
  if (positionals[0] === "push-server-id") {
    pushServerId(out);
    return 0;
  }
  try {
    let deps = io.deps;
    if (!deps) {
      const local = values.local ?? false;
      const env = await cliEnvironment({ local, stackName: values["stack-name"] }, io.env ?? process.env, io.cloudFormation, io.readSecret);
      let config: Config;
      try {
        config = cliConfig(local, env);
      } catch (e) {
        throw new UsageError(`bad configuration in the environment: ${(e as Error).message}`);
      }
      deps = cliDeps(config);
    }
    await run(positionals[0]!, values, deps, out, positionals.slice(1));
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof JsonableError || e instanceof StackLookupError) {
      err(`error: ${e.message}`);
      if (e instanceof UsageError && e.message.startsWith("unknown command")) err(MANAGE_USAGE);
      return 1;
    }
    throw e;
  }
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
