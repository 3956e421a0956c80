import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { queueClient } from "./streams-helpers.js";
import type { EventQueueClient } from "../support/event-queue-client.js";

/**
 * Custom profile field definitions: `GET`/`POST`/`PATCH` (reorder)
 * `/realm/profile_fields`, `PATCH`/`DELETE /realm/profile_fields/{field_id}`,
 * each role, Zulip's validation errors, the `custom_profile_fields` event a
 * second client receives and register's state after each change.
 * Values are covered by custom-profile-data.test.ts.
 */

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const ok = { result: "success", msg: "" };

async function createField(params: Record<string, unknown>, who: TestUser = org.users.admin): Promise<number> {
  const res = await org.api(who, "POST", "/realm/profile_fields", params);
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function listFields(who: TestUser = org.users.member): Promise<Record<string, any>[]> {
  const res = await org.api(who, "GET", "/realm/profile_fields");
  expect(res.status).toBe(200);
  return res.body.custom_fields;
}

let watcher: EventQueueClient;

beforeAll(async () => {
  watcher = queueClient(org, org.users.member2);
  await watcher.register({ event_types: JSON.stringify(["custom_profile_fields"]) });
});

afterAll(async () => {
  await watcher?.delete();
});

/** The next `custom_profile_fields` event the second client (member2) receives. */
async function nextFieldsEvent(): Promise<Record<string, any>> {
  return watcher.waitFor((e) => e.type === "custom_profile_fields");
}

describe("POST /realm/profile_fields", () => {
  it("creates a short text field: id, GET, event to a second client, register", async () => {
    const id = await createField({ name: "  Phone number ", hint: "Work phone", field_type: 1 });
    const expected = { id, name: "Phone number", type: 1, hint: "Work phone", field_data: "", order: id, required: false };
    expect((await listFields()).find((f) => f.id === id)).toEqual(expected);
    const event = await nextFieldsEvent();
    expect(event.fields.find((f: any) => f.id === id)).toEqual(expected);
    const reg = await queueClient(org, org.users.guest).register({ fetch_event_types: JSON.stringify(["custom_profile_fields"]) });
    expect(reg.custom_profile_fields.find((f: any) => f.id === id)).toEqual(expected);
    expect(reg.custom_profile_field_types.PRONOUNS).toEqual({ id: 8, name: "Pronouns" });
    expect(reg.custom_profile_field_types.CHOICE).toEqual({ id: 3, name: "List of options" });
  });

  it("creates a choice field with its field_data as JSON text, required and in the summary", async () => {
    const choices = { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2" } };
    const id = await createField({
      name: "Editor",
      field_type: 3,
      field_data: choices,
      required: true,
      display_in_profile_summary: true,
    });
    const field = (await listFields()).find((f) => f.id === id)!;
    expect(field).toEqual({
      id,
      name: "Editor",
      type: 3,
      hint: "",
      field_data: JSON.stringify(choices),
      order: id,
      required: true,
      display_in_profile_summary: true,
    });
    await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { display_in_profile_summary: false });
  });

  it("creates a default external account field with Zulip's label, and a custom one", async () => {
    const github = await createField({ field_type: 7, field_data: { subtype: "github" }, name: "ignored" });
    const custom = await createField({
      name: "Mastodon",
      field_type: 7,
      field_data: { subtype: "custom", url_pattern: "https://mastodon.social/@%(username)s" },
    });
    const fields = await listFields();
    expect(fields.find((f) => f.id === github)).toMatchObject({ name: "GitHub username", hint: "", field_data: '{"subtype":"github"}' });
    expect(fields.find((f) => f.id === custom)).toMatchObject({
      name: "Mastodon",
      field_data: JSON.stringify({ subtype: "custom", url_pattern: "https://mastodon.social/@%(username)s" }),
    });
    const again = await org.api(org.users.admin, "POST", "/realm/profile_fields", { field_type: 7, field_data: { subtype: "github" } });
    expect(again.body).toEqual(err("A field with that label already exists."));
  });

  it("creates each remaining type: long text, date, link, person picker, pronouns", async () => {
    for (const [name, type] of [["Bio", 2], ["Birthday", 4], ["Website", 5], ["Mentor", 6], ["Pronouns", 8]] as const) {
      const id = await createField({ name, field_type: type });
      expect((await listFields()).find((f) => f.id === id)).toMatchObject({ name, type, field_data: "" });
    }
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["a blank label", { name: "   ", field_type: 1 }, "Label cannot be blank."],
    ["a long label", { name: "n".repeat(41), field_type: 1 }, "name is too long (limit: 40 characters)"],
    ["a long hint", { name: "Hinted", hint: "h".repeat(81), field_type: 1 }, "hint is too long (limit: 80 characters)"],
    ["an unknown type", { name: "Typeless", field_type: 9 }, "Invalid field type."],
    ["a missing type", { name: "Typeless" }, "Missing 'field_type' argument"],
    ["a duplicate label", { name: "Phone number", field_type: 1 }, "A field with that label already exists."],
    ["a choice field without choices", { name: "Empty", field_type: 3, field_data: {} }, "Field must have at least one choice."],
    ["a blank choice key", { name: "C1", field_type: 3, field_data: { " ": { text: "A", order: "1" } } }, "'value' cannot be blank."],
    ["a choice without text", { name: "C2", field_type: 3, field_data: { a: { order: "1" } } }, "text key is missing from field_data"],
    ["a blank choice text", { name: "C3", field_type: 3, field_data: { a: { text: " ", order: "1" } } }, 'field_data["text"] cannot be blank.'],
    ["an extra choice key", { name: "C4", field_type: 3, field_data: { a: { text: "A", order: "1", x: "y" } } }, "Unexpected arguments: x"],
    [
      "duplicate choices",
      { name: "C5", field_type: 3, field_data: { a: { text: "A", order: "1" }, b: { text: "A", order: "2" } } },
      "Field must not have duplicate choices.",
    ],
    ["field_data that is not a dict", { name: "C6", field_type: 3, field_data: [1] }, "field_data is not a dict"],
    ["an unknown external account", { name: "E1", field_type: 7, field_data: { subtype: "myspace" } }, "Invalid external account type"],
    ["an external account without subtype", { name: "E2", field_type: 7, field_data: {} }, "subtype key is missing from field_data"],
    [
      "a custom account without pattern",
      { name: "E3", field_type: 7, field_data: { subtype: "custom" } },
      "Custom external account must define URL pattern",
    ],
    [
      "a pattern without %(username)s",
      { name: "E4", field_type: 7, field_data: { subtype: "custom", url_pattern: "https://x.example/" } },
      "URL pattern must contain '%(username)s'.",
    ],
    [
      "a pattern that is not a URL",
      { name: "E5", field_type: 7, field_data: { subtype: "custom", url_pattern: "nope/%(username)s" } },
      'field_data["url_pattern"] is not a URL',
    ],
    [
      "long text in the summary",
      { name: "S1", field_type: 2, display_in_profile_summary: true },
      "Field type not supported for display in profile summary.",
    ],
    [
      "a person picker in the summary",
      { name: "S2", field_type: 6, display_in_profile_summary: true },
      "Field type not supported for display in profile summary.",
    ],
  ];
  for (const [what, params, msg] of invalid) {
    it(`refuses ${what}: "${msg}", nothing created`, async () => {
      const before = await listFields();
      const res = await org.api(org.users.admin, "POST", "/realm/profile_fields", params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ ...err(msg), ...(msg.startsWith("Missing") ? { code: "REQUEST_VARIABLE_MISSING", var_name: "field_type" } : {}) });
      expect(await listFields()).toEqual(before);
    });
  }

  it("allows at most two fields in the profile summary", async () => {
    const a = await createField({ name: "Sum A", field_type: 1, display_in_profile_summary: true });
    const b = await createField({ name: "Sum B", field_type: 5, display_in_profile_summary: true });
    const res = await org.api(org.users.admin, "POST", "/realm/profile_fields", {
      name: "Sum C",
      field_type: 1,
      display_in_profile_summary: true,
    });
    expect(res.body).toEqual(err("Only 2 custom profile fields can be displayed in the profile summary."));
    const c = await createField({ name: "Sum C", field_type: 1 });
    const refused = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${c}`, { display_in_profile_summary: true });
    expect(refused.body).toEqual(err("Only 2 custom profile fields can be displayed in the profile summary."));
    // Re-asserting a field already in the summary does not count it twice.
    expect((await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${a}`, { display_in_profile_summary: true })).body).toEqual(ok);
    for (const id of [a, b, c]) expect((await org.api(org.users.admin, "DELETE", `/realm/profile_fields/${id}`)).body).toEqual(ok);
  });

  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who}: Must be an organization administrator`, async () => {
      const before = await listFields();
      const res = await org.api(org.users[who], "POST", "/realm/profile_fields", { name: `By ${who}`, field_type: 1 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err("Must be an organization administrator"));
      expect(await listFields()).toEqual(before);
    });
  }

  it("keeps labels unique under concurrent creation: exactly one of five wins", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => org.api(org.users.admin, "POST", "/realm/profile_fields", { name: "Raced", field_type: 1 })),
    );
    expect(results.filter((r) => r.body.result === "success")).toHaveLength(1);
    for (const r of results.filter((x) => x.body.result !== "success")) {
      expect(r.body).toEqual(err("A field with that label already exists."));
    }
    expect((await listFields()).filter((f) => f.name === "Raced")).toHaveLength(1);
  });

  it("lets the owner create a field", async () => {
    const id = await createField({ name: "Owner made", field_type: 1 }, org.users.owner);
    expect((await listFields()).some((f) => f.id === id)).toBe(true);
  });
});

describe("GET /realm/profile_fields", () => {
  for (const who of ["owner", "admin", "moderator", "member", "guest", "bot"] as const) {
    it(`answers a ${who} with every field in display order`, async () => {
      const fields = await listFields(org.users[who]);
      expect(fields.length).toBeGreaterThan(0);
      const orders = fields.map((f) => f.order);
      expect(orders).toEqual([...orders].sort((x, y) => x - y));
    });
  }
});

describe("PATCH /realm/profile_fields/{field_id}", () => {
  it("changes label, hint and required; a second client gets the whole list", async () => {
    const id = await createField({ name: "Team", field_type: 1 });
    await nextFieldsEvent();
    const res = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, {
      name: " Squad ",
      hint: "Your squad",
      required: true,
    });
    expect(res.body).toEqual(ok);
    const expected = { id, name: "Squad", type: 1, hint: "Your squad", field_data: "", order: id, required: true };
    expect((await listFields()).find((f) => f.id === id)).toEqual(expected);
    const event = await nextFieldsEvent();
    expect(event.fields).toEqual(await listFields());
    const reg = await queueClient(org, org.users.member).register({ fetch_event_types: JSON.stringify(["custom_profile_fields"]) });
    expect(reg.custom_profile_fields.find((f: any) => f.id === id)).toEqual(expected);
  });

  it("replaces the choices of a choice field", async () => {
    const id = await createField({ name: "Shift", field_type: 3, field_data: { d: { text: "Day", order: "1" } } });
    const data = { d: { text: "Day", order: "1" }, n: { text: "Night", order: "2" } };
    expect((await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { field_data: data })).body).toEqual(ok);
    expect((await listFields()).find((f) => f.id === id)!.field_data).toBe(JSON.stringify(data));
    const bad = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { field_data: {} });
    expect(bad.body).toEqual(err("Field must have at least one choice."));
  });

  it("refuses to redefine a default external account but lets its flags change", async () => {
    const id = await createField({ field_type: 7, field_data: { subtype: "twitter" } });
    const renamed = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { name: "X handle" });
    expect(renamed.body).toEqual(err("Default custom field cannot be updated."));
    const sameName = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { name: "Twitter username", required: true });
    expect(sameName.body).toEqual(ok);
    expect((await listFields()).find((f) => f.id === id)).toMatchObject({ name: "Twitter username", required: true });
  });

  it("refuses a duplicate label, a blank label and an unknown field", async () => {
    const id = await createField({ name: "Unique one", field_type: 1 });
    const dup = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { name: "Phone number" });
    expect(dup.body).toEqual(err("A field with that label already exists."));
    const blank = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { name: "  " });
    expect(blank.body).toEqual(err("Label cannot be blank."));
    const long = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { name: "l".repeat(41) });
    expect(long.body).toEqual(err("name is too long (limit: 40 characters)"));
    const summary = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { required: '"yes"' });
    expect(summary.body).toEqual(err("required is not a boolean"));
    const unknown = await org.api(org.users.admin, "PATCH", "/realm/profile_fields/999999", { name: "Ghost" });
    expect(unknown.body).toEqual(err("Field id 999999 not found."));
    expect((await listFields()).find((f) => f.id === id)!.name).toBe("Unique one");
  });

  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who}: Must be an organization administrator`, async () => {
      const id = (await listFields())[0]!.id;
      const before = await listFields();
      const res = await org.api(org.users[who], "PATCH", `/realm/profile_fields/${id}`, { name: `Renamed by ${who}` });
      expect(res.body).toEqual(err("Must be an organization administrator"));
      expect(await listFields()).toEqual(before);
    });
  }
});

describe("PATCH /realm/profile_fields (reorder)", () => {
  it("gives each field its position; the second client and register see the new order", async () => {
    const ids = (await listFields()).map((f) => f.id);
    const reversed = [...ids].reverse();
    const res = await org.api(org.users.admin, "PATCH", "/realm/profile_fields", { order: reversed });
    expect(res.body).toEqual(ok);
    const after = await listFields();
    expect(after.map((f) => f.id)).toEqual(reversed);
    expect(after.map((f) => f.order)).toEqual(reversed.map((_, i) => i));
    const event = await watcher.waitFor((e) => e.type === "custom_profile_fields" && e.fields[0]?.id === reversed[0]);
    expect(event.fields).toEqual(after);
    const reg = await queueClient(org, org.users.owner).register({ fetch_event_types: JSON.stringify(["custom_profile_fields"]) });
    expect(reg.custom_profile_fields).toEqual(after);
  });

  it("refuses an order that leaves a field out: Invalid order mapping.", async () => {
    const before = await listFields();
    const res = await org.api(org.users.admin, "PATCH", "/realm/profile_fields", { order: before.slice(1).map((f) => f.id) });
    expect(res.body).toEqual(err("Invalid order mapping."));
    expect(await listFields()).toEqual(before);
    const notList = await org.api(org.users.admin, "PATCH", "/realm/profile_fields", { order: 5 });
    expect(notList.body).toEqual(err("order is not a list"));
  });

  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who}: Must be an organization administrator`, async () => {
      const before = await listFields();
      const res = await org.api(org.users[who], "PATCH", "/realm/profile_fields", { order: before.map((f) => f.id).reverse() });
      expect(res.body).toEqual(err("Must be an organization administrator"));
      expect(await listFields()).toEqual(before);
    });
  }
});

describe("DELETE /realm/profile_fields/{field_id}", () => {
  it("deletes a field; the second client gets the list without it", async () => {
    const id = await createField({ name: "Doomed", field_type: 1 });
    const res = await org.api(org.users.admin, "DELETE", `/realm/profile_fields/${id}`);
    expect(res.body).toEqual(ok);
    expect((await listFields()).some((f) => f.id === id)).toBe(false);
    const event = await watcher.waitFor((e) => e.type === "custom_profile_fields" && !e.fields.some((f: any) => f.id === id));
    expect(event.fields).toEqual(await listFields());
    const again = await org.api(org.users.admin, "DELETE", `/realm/profile_fields/${id}`);
    expect(again.body).toEqual(err(`Field id ${id} not found.`));
  });

  for (const who of ["moderator", "member", "guest", "bot"] as const) {
    it(`refuses a ${who}: Must be an organization administrator`, async () => {
      const id = (await listFields())[0]!.id;
      const res = await org.api(org.users[who], "DELETE", `/realm/profile_fields/${id}`);
      expect(res.body).toEqual(err("Must be an organization administrator"));
      expect((await listFields()).some((f) => f.id === id)).toBe(true);
    });
  }

  it("lets the owner delete a field", async () => {
    const id = await createField({ name: "Owner deletes", field_type: 4 });
    expect((await org.api(org.users.owner, "DELETE", `/realm/profile_fields/${id}`)).body).toEqual(ok);
    expect((await listFields()).some((f) => f.id === id)).toBe(false);
  });
});

describe("field_data nested beyond the JSON depth bound", () => {
  // 5,000 levels: the decoded value once overflowed the call stack of the definition check (a 500).
  const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;

  it("answers POST and PATCH with 400 'not valid JSON' and changes nothing", async () => {
    // Prepare
    const id = await createField({ name: "Depth probe", field_type: 3, field_data: { a: { text: "A", order: "1" } } });
    const before = await listFields();
    // Act
    const created = await org.api(org.users.admin, "POST", "/realm/profile_fields", { name: "Deep", field_type: 3, field_data: deep });
    const patched = await org.api(org.users.admin, "PATCH", `/realm/profile_fields/${id}`, { field_data: deep });
    // Assess
    for (const res of [created, patched]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err('Argument "field_data" is not valid JSON.'));
    }
    expect(await listFields()).toEqual(before);
  });
});
