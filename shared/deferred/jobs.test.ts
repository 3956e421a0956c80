import { describe, expect, it } from "vitest";
import { JOB_KINDS, parseDeferredJob, type DeferredJob } from "./jobs.js";

const body = (job: unknown) => JSON.stringify(job);

describe("parseDeferredJob", () => {
  it("returns a well-formed job typed by its kind", () => {
    // Prepare
    const job: DeferredJob = {
      kind: "mark_as_read",
      payload: { realm_id: 2, user_id: 9, scope: { kind: "topic", stream_id: 3, topic: "t" }, after: 0 },
    };
    // Act
    const parsed = parseDeferredJob(body(job));
    // Assess
    expect(parsed).toEqual(job);
    if (parsed.kind !== "mark_as_read") throw new Error("wrong kind");
    expect(parsed.payload.scope.kind).toBe("topic");
  });

  it("keeps a fanned-out event whole: only its type is checked", () => {
    const job = { kind: "fanout_event", payload: { event: { type: "typing", op: "start", any: [1] }, users: [{ id: 1 }, { id: 2, flags: ["read"] }] } };
    expect(parseDeferredJob(body(job))).toEqual(job);
  });

  it.each([
    ["a payload field of the wrong type", { kind: "index_message", payload: { realm_id: 1, message_id: "7" } }, /message_id/],
    ["a missing payload field", { kind: "thumbnail", payload: { realm_id: 1 } }, /path_ids/],
    ["a field the kind does not declare", { kind: "delete_messages", payload: { message_id: 1, user_ids: [], extra: true } }, /extra/],
    ["a payload on a kind that takes none", { kind: "sweep_demo_organizations", payload: { realm_id: 1 } }, /realm_id/],
    ["an unknown delete_realm phase", { kind: "delete_realm", payload: { realm_id: 1, phase: "later" } }, /phase/],
    ["an unknown mark_as_read scope", { kind: "mark_as_read", payload: { realm_id: 1, user_id: 1, scope: { kind: "dm" }, after: 0 } }, /scope/],
    ["an unknown kind", { kind: "no_such_kind", payload: {} }, /kind/],
    ["no payload", { kind: "index_message" }, /payload/],
    ["a fanned-out event without a type", { kind: "fanout_event", payload: { event: { op: "add" }, users: [] } }, /type/],
  ])("refuses %s", (_what, job, field) => {
    expect(() => parseDeferredJob(body(job))).toThrow(/^Malformed deferred job: /);
    expect(() => parseDeferredJob(body(job))).toThrow(field);
  });

  it("refuses a body that is not JSON, or not an object", () => {
    expect(() => parseDeferredJob("{not json")).toThrow(/^Malformed deferred job: .*JSON/);
    expect(() => parseDeferredJob("null")).toThrow(/^Malformed deferred job: /);
    expect(() => parseDeferredJob('"thumbnail"')).toThrow(/^Malformed deferred job: /);
  });
});

describe("JOB_KINDS", () => {
  it("lists each kind of the schema once", () => {
    expect(new Set(JOB_KINDS).size).toBe(JOB_KINDS.length);
    expect(JOB_KINDS).toContain("fanout_event");
    expect(JOB_KINDS).toContain("thumbnail");
  });
});

describe("DeferredJob", () => {
  it("is what producers build: the compiler refuses a payload its kind does not take", () => {
    const good: DeferredJob = { kind: "thumbnail", payload: { realm_id: 1, path_ids: ["a"] } };
    // @ts-expect-error path_ids is missing (`npm run typecheck` checks this line)
    const missing: DeferredJob = { kind: "thumbnail", payload: { realm_id: 1 } };
    // @ts-expect-error another kind's payload
    const crossed: DeferredJob = { kind: "index_message", payload: { realm_id: 1, path_ids: ["a"] } };
    expect(parseDeferredJob(body(good))).toEqual(good);
    expect(() => parseDeferredJob(body(missing))).toThrow(/path_ids/);
    expect(() => parseDeferredJob(body(crossed))).toThrow(/message_id/);
  });
});
