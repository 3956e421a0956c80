import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliConfig, LOCAL_ENV, main } from "../../scripts/manage.js";
import { getRealm, getRealmIdBySubdomain } from "../../shared/data/realms.js";
import type { UserRecord } from "../../shared/data/records/user.js";
import { userById, getUserIdByEmail } from "../../shared/data/users.js";
import { Role } from "../../shared/domain/roles.js";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

/** Runs the CLI in-process against the test stack's table; returns the exit status and both outputs. */
async function manage(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { deps: org.stack.deps, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

async function userByEmail(email: string, realmId = org.realm.id): Promise<UserRecord | undefined> {
  const id = await getUserIdByEmail(org.stack.deps, realmId, email);
  return id === undefined ? undefined : userById(org.stack.deps, realmId, id);
}

describe("manage list-users", () => {
  it("prints a table of id, email, name, role and active for every account", async () => {
    const { code, out, err } = await manage("list-users", "--realm", "");
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out[0]).toMatch(/^id\s+email\s+name\s+role\s+active$/);
    const rows = out.slice(1).map((l) => l.split(/\s{2,}/));
    expect(rows).toContainEqual([String(org.users.owner.id), "owner@test.example", "Olivia Owner", "owner", "yes"]);
    expect(rows).toContainEqual([String(org.users.guest.id), "guest@test.example", "Gus Guest", "guest", "yes"]);
    expect(rows).toContainEqual([String(org.users.bot.id), "test-bot@test.example", "Test Bot", "member (bot)", "yes"]);
  });

  it("refuses an unknown organization", async () => {
    const { code, err } = await manage("list-users", "--realm", "nope");
    expect(code).toBe(1);
    expect(err).toEqual(["error: no organization with subdomain 'nope'"]);
  });
});

describe("manage create-user", () => {
  it("creates a user with a role and password who can then log in", async () => {
    // Act
    const { code, out } = await manage(
      "create-user", "--realm", "", "--email", "cli-admin@test.example", "--name", "Cli Admin", "--role", "admin",
      "--password", "cli-password",
    );
    // Assess
    expect(code).toBe(0);
    const user = await userByEmail("cli-admin@test.example");
    expect(user).toMatchObject({ full_name: "Cli Admin", role: Role.ADMINISTRATOR, is_bot: false, is_active: true });
    expect(out).toEqual([
      `Created admin Cli Admin <cli-admin@test.example> (user id ${user!.user_id})`,
      `API key: ${user!.api_key}`,
    ]);
    const login = await org.api(null, "POST", "/fetch_api_key", { username: "cli-admin@test.example", password: "cli-password" });
    expect(login.body.result).toBe("success");
  });

  it("creates a bot whose key works against the API", async () => {
    const { code } = await manage(
      "create-user", "--realm", "", "--email", "cli-bot@test.example", "--name", "Cli Bot", "--role", "member", "--bot",
    );
    expect(code).toBe(0);
    const bot = (await userByEmail("cli-bot@test.example"))!;
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: null, password_hash: null });
    const me = await org.api(
      { id: bot.user_id, email: bot.delivery_email, apiKey: bot.api_key, fullName: bot.full_name, role: bot.role },
      "GET",
      "/users/me",
    );
    expect(me.body).toMatchObject({ result: "success", user_id: bot.user_id, is_bot: true });
  });

  const refusals: [string[], string][] = [
    [["--email", "member@test.example", "--name", "Dup", "--role", "member"], "error: Email 'member@test.example' already in use"],
    [["--email", "cli-x@test.example", "--name", "Dup", "--role", "boss"], "error: invalid role 'boss': use one of owner, admin, moderator, member, guest"],
    [["--email", "cli-y@test.example", "--name", "Bad*Name", "--role", "member"], "error: Invalid characters in name!"],
    [["--email", "not-an-email", "--name", "Bad Mail", "--role", "member"], "error: Bad name or username"],
    [["--email", "cli-z@test.example", "--name", "Weak", "--role", "member", "--password", "123"], "error: The password is too weak."],
    [["--name", "No Mail", "--role", "member"], "error: --email is required"],
  ];
  for (const [args, message] of refusals) {
    it(`exits 1 with "${message}" and creates nothing`, async () => {
      const { code, err, out } = await manage("create-user", "--realm", "", ...args);
      expect(code).toBe(1);
      expect(err).toEqual([message]);
      expect(out).toEqual([]);
      const email = args[args.indexOf("--email") + 1];
      if (email && email !== "member@test.example" && args.includes("--email")) {
        expect(await userByEmail(email)).toBeUndefined();
      }
    });
  }

  it("refuses an option that belongs to another command", async () => {
    const { code, err } = await manage("create-user", "--realm", "", "--subdomain", "x");
    expect(code).toBe(1);
    expect(err).toEqual(["error: create-user does not take --subdomain"]);
  });
});

describe("manage rotate-api-key", () => {
  it("prints a new key; the old one stops working and the new one works", async () => {
    // Prepare
    const user = await org.createUser("rotator");
    expect((await org.api(user, "GET", "/users/me")).status).toBe(200);
    // Act
    const { code, out } = await manage("rotate-api-key", "--realm", "", "--email", user.email);
    // Assess
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const key = out[0]!;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(key).not.toBe(user.apiKey);
    const old = await org.api(user, "GET", "/users/me");
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" });
    expect((await org.api({ ...user, apiKey: key }, "GET", "/users/me")).body.user_id).toBe(user.id);
    expect((await userByEmail(user.email))!.api_key).toBe(key);
  });

  it("refuses an unknown email", async () => {
    const { code, err } = await manage("rotate-api-key", "--realm", "", "--email", "ghost@test.example");
    expect(code).toBe(1);
    expect(err).toEqual(["error: no user with email 'ghost@test.example' in this organization"]);
  });
});

describe("manage create-realm", () => {
  it("creates an organization with its owner", async () => {
    // Act
    const { code, out, err } = await manage(
      "create-realm", "--subdomain", "Acme", "--name", "Acme Corp", "--owner-email", "boss@acme.example",
      "--owner-name", "Big Boss", "--password", "boss-password",
    );
    // Assess
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const realmId = await getRealmIdBySubdomain(org.stack.deps, "acme");
    expect(realmId).toBeDefined();
    const realm = (await getRealm(org.stack.deps, realmId!))!;
    expect(realm).toMatchObject({ string_id: "acme", name: "Acme Corp", deactivated: false });
    const owner = (await userByEmail("boss@acme.example", realm.id))!;
    expect(owner).toMatchObject({ full_name: "Big Boss", role: Role.OWNER, is_active: true });
    expect(out[0]).toBe(`Created organization 'Acme Corp' (id ${realm.id}) at http://acme.${org.stack.deps.config.ROOT_DOMAIN}`);
    expect(out[2]).toBe(`API key: ${owner.api_key}`);
    const listed = await manage("list-users", "--realm", "acme");
    expect(listed.out.slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^${owner.user_id}\\s+boss@acme\\.example\\s+Big Boss\\s+owner\\s+yes$`)),
    ]);
  });

  it("refuses a subdomain in use", async () => {
    const { code, err } = await manage(
      "create-realm", "--subdomain", "", "--name", "Again", "--owner-email", "again@test.example", "--owner-name", "Again",
    );
    expect(code).toBe(1);
    expect(err).toEqual(["error: Subdomain already in use"]);
    expect(await userByEmail("again@test.example")).toBeUndefined();
  });

  it("refuses an organization other than the default one on a stack's execute-api host", async () => {
    const host = "abc123defg.execute-api.eu-west-1.amazonaws.com";
    const deps = { ...org.stack.deps, config: { ...org.stack.deps.config, ROOT_DOMAIN: host } };
    const err: string[] = [];
    const argv = ["create-realm", "--subdomain", "apigw", "--name", "N", "--owner-email", "a@apigw.example", "--owner-name", "A B"];
    const code = await main(argv, { deps, err: (l) => err.push(l) });
    expect(code).toBe(1);
    expect(err).toEqual([
      `error: ${host} serves only the default organization (--subdomain ""); ` +
        "deploy with rootDomain and certificateArn for others (docs/deploying.md)",
    ]);
    expect(await getRealmIdBySubdomain(org.stack.deps, "apigw")).toBeUndefined();
  });

  it("refuses an invalid subdomain and an invalid owner email", async () => {
    const bad = await manage("create-realm", "--subdomain", "no way", "--name", "N", "--owner-email", "a@b.example", "--owner-name", "A B");
    expect(bad.code).toBe(1);
    expect(bad.err).toEqual(["error: invalid subdomain 'no way': use lower-case letters, digits and hyphens"]);
    const mail = await manage("create-realm", "--subdomain", "mailless", "--name", "N", "--owner-email", "nope", "--owner-name", "A B");
    expect(mail.err).toEqual(["error: invalid email address 'nope'"]);
    expect(await getRealmIdBySubdomain(org.stack.deps, "mailless")).toBeUndefined();
  });
});

describe("manage --zuliprc", () => {
  it("writes the new user's site, email and key (mode 600), which then work against the API", async () => {
    // Prepare
    const path = join(await mkdtemp(join(tmpdir(), "manage-zuliprc-")), "zuliprc");
    // Act
    const { code, out } = await manage(
      "create-user", "--realm", "", "--email", "rc-user@test.example", "--name", "Rc User", "--role", "member",
      "--zuliprc", path,
    );
    // Assess
    expect(code).toBe(0);
    const user = (await userByEmail("rc-user@test.example"))!;
    const site = `http://${org.stack.deps.config.ROOT_DOMAIN}`;
    expect(out.at(-1)).toBe(`zuliprc: ${path} (site ${site})`);
    expect(await readFile(path, "utf8")).toBe(`[api]\nemail=rc-user@test.example\nkey=${user.api_key}\nsite=${site}\n`);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const asUser = { id: user.user_id, email: user.delivery_email, apiKey: user.api_key, fullName: user.full_name, role: user.role };
    const me = await org.api(asUser, "GET", "/users/me");
    expect(me.body.user_id).toBe(user.user_id);
  });

  it("writes the owner's credentials at the new organization's site", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "manage-zuliprc-")), "zuliprc");
    const { code } = await manage(
      "create-realm", "--subdomain", "rcorg", "--name", "Rc Org", "--owner-email", "boss@rcorg.example",
      "--owner-name", "Rc Boss", "--zuliprc", path,
    );
    expect(code).toBe(0);
    const realmId = (await getRealmIdBySubdomain(org.stack.deps, "rcorg"))!;
    const owner = (await userByEmail("boss@rcorg.example", realmId))!;
    expect(await readFile(path, "utf8")).toBe(
      `[api]\nemail=boss@rcorg.example\nkey=${owner.api_key}\nsite=http://rcorg.${org.stack.deps.config.ROOT_DOMAIN}\n`,
    );
  });

  it("refuses a path in a missing directory before creating anything", async () => {
    const { code, err } = await manage(
      "create-user", "--realm", "", "--email", "rc-none@test.example", "--name", "Rc None", "--role", "member",
      "--zuliprc", "/nonexistent-dir/zuliprc",
    );
    expect(code).toBe(1);
    expect(err).toEqual([
      "error: cannot write --zuliprc /nonexistent-dir/zuliprc: its directory does not exist or is not writable",
    ]);
    expect(await userByEmail("rc-none@test.example")).toBeUndefined();
  });

  it("is refused by commands that create no account", async () => {
    const { code, err } = await manage("list-users", "--realm", "", "--zuliprc", "/tmp/never");
    expect(code).toBe(1);
    expect(err).toEqual(["error: list-users does not take --zuliprc"]);
  });
});

describe("manage: command line", () => {
  it("prints usage and exits 1 without a command or with an unknown one", async () => {
    const none = await manage();
    expect(none.code).toBe(1);
    expect(none.err[0]).toMatch(/^Usage: npm run manage/);
    const unknown = await manage("frobnicate");
    expect(unknown.code).toBe(1);
    expect(unknown.err[0]).toBe("error: unknown command 'frobnicate'");
  });

  it("exits 1 on an unknown option", async () => {
    const res = await manage("list-users", "--realm", "", "--frob");
    expect(res.code).toBe(1);
    expect(res.err[0]).toMatch(/^error: Unknown option '--frob'/);
  });

  it("prints usage and exits 0 with --help", async () => {
    const res = await manage("--help");
    expect(res.code).toBe(0);
    expect(res.out[0]).toMatch(/^Usage: npm run manage/);
  });

  it("--local means DynamoDB Local on port 8000 with table zulip; otherwise the environment", () => {
    const local = cliConfig(true, { TABLE_NAME: "other", DYNAMODB_ENDPOINT: "http://elsewhere:1" });
    expect(local).toMatchObject({ TABLE_NAME: "zulip", DYNAMODB_ENDPOINT: LOCAL_ENV.DYNAMODB_ENDPOINT });
    const env = cliConfig(false, { TABLE_NAME: "prod-table", AWS_REGION: "eu-west-1" });
    expect(env).toMatchObject({ TABLE_NAME: "prod-table", AWS_REGION: "eu-west-1" });
    expect(env.DYNAMODB_ENDPOINT).toBeUndefined();
  });

  it("reports a malformed environment as bad input", async () => {
    const err: string[] = [];
    const code = await main(["list-users", "--realm", ""], { env: { DYNAMODB_ENDPOINT: "not a url" }, err: (l) => err.push(l) });
    expect(code).toBe(1);
    expect(err[0]).toMatch(/^error: bad configuration in the environment/);
  });
});
