import { describe, expect, it } from "vitest";
import { JOB_KINDS } from "../../shared/deferred/jobs.js";
import { JOB_RUNNERS, runJob, type JobRunners } from "./jobs.js";
import { createDeps, type WorkerDeps } from "../../shared/deps.js";
import { NO_MAIL } from "../../shared/mail/mailer.js";
import { loadConfig } from "../../shared/config.js";

// Type-level exhaustiveness: a registry without a kind does not compile
// (`npm run typecheck` checks these lines).
// @ts-expect-error thumbnail has no runner
const missing: JobRunners = { ...JOB_RUNNERS, thumbnail: undefined };
// @ts-expect-error a runner of another kind's payload
const wrongPayload: JobRunners = { ...JOB_RUNNERS, thumbnail: async (_deps: WorkerDeps, p: { message_ids: number[] }) => void p };
void missing;
void wrongPayload;

/** A file store for runners that never touch files. */
const NO_FILES: WorkerDeps["files"] = {
  put: () => Promise.reject(new Error("unused")),
  get: () => Promise.reject(new Error("unused")),
  delete: () => Promise.reject(new Error("unused")),
  presignGet: () => Promise.reject(new Error("unused")),
  createMultipartUpload: () => Promise.reject(new Error("unused")),
  uploadPart: () => Promise.reject(new Error("unused")),
  completeMultipartUpload: () => Promise.reject(new Error("unused")),
  abortMultipartUpload: () => Promise.reject(new Error("unused")),
};

describe("JOB_RUNNERS", () => {
  it("has a runner for every kind of the job schema, and nothing else", () => {
    expect(Object.keys(JOB_RUNNERS).sort()).toEqual([...JOB_KINDS].sort());
    for (const kind of JOB_KINDS) expect(typeof JOB_RUNNERS[kind]).toBe("function");
  });
});

describe("runJob", () => {
  it("gives the job's payload to its kind's runner", async () => {
    // Prepare
    const deps = { ...createDeps(loadConfig({ LOG_LEVEL: "silent" })), files: NO_FILES, mailer: NO_MAIL };
    const calls: [string, unknown][] = [];
    const runners: JobRunners = {
      ...JOB_RUNNERS,
      index_message: async (_d, p) => void calls.push(["index_message", p]),
      thumbnail: async (_d, p) => void calls.push(["thumbnail", p]),
    };
    // Act
    await runJob(deps, { kind: "thumbnail", payload: { realm_id: 1, path_ids: ["a"] } }, runners);
    await runJob(deps, { kind: "index_message", payload: { realm_id: 1, message_id: 5 } }, runners);
    // Assess
    expect(calls).toEqual([
      ["thumbnail", { realm_id: 1, path_ids: ["a"] }],
      ["index_message", { realm_id: 1, message_id: 5 }],
    ]);
  });
});
