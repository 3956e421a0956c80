import { describe, expect, it } from "vitest";
import type { FileStore } from "../../shared/storage/file-store.js";
import { diffFiles, emptyFileTotals, FileStoreMeter, s3Requests } from "./file-meter.js";

/** An in-memory file store. */
function memoryStore(): FileStore {
  const objects = new Map<string, Uint8Array>();
  return {
    put: async (key, body) => void objects.set(key, body),
    get: async (key) => objects.get(key),
    delete: async (keys) => keys.forEach((k) => objects.delete(k)),
    presignGet: async (key) => `https://bucket.example/${key}?signed`,
    createMultipartUpload: () => Promise.reject(new Error("unused")),
    uploadPart: () => Promise.reject(new Error("unused")),
    completeMultipartUpload: () => Promise.reject(new Error("unused")),
    abortMultipartUpload: () => Promise.reject(new Error("unused")),
  };
}

describe("FileStoreMeter", () => {
  it("counts each call and its bytes, and passes it on", async () => {
    const meter = new FileStoreMeter();
    const store = meter.wrap(memoryStore());
    const before = meter.snapshot();
    await store.put("a", new Uint8Array(100), { contentType: "text/plain" });
    await store.put("b", new Uint8Array(20), { contentType: "text/plain" });
    expect(await store.get("a")).toHaveLength(100);
    expect(await store.get("missing")).toBeUndefined();
    expect(await store.presignGet("b", 60)).toBe("https://bucket.example/b?signed");
    await store.delete(Array.from({ length: 1001 }, (_, i) => `k${i}`));
    await store.delete([]);
    const d = diffFiles(meter.snapshot(), before);
    expect(d.request).toEqual({ puts: 2, putBytes: 120, gets: 2, getBytes: 100, presigns: 1, deletes: 2, deletedKeys: 1001 });
    expect(d.deferred).toEqual(emptyFileTotals());
    expect(d.all).toEqual(d.request);
  });

  it("attributes calls under the job dispatcher runJob to deferred work", async () => {
    const meter = new FileStoreMeter();
    const store = meter.wrap(memoryStore());
    async function runJob(): Promise<void> {
      await store.put("t", new Uint8Array(7), { contentType: "image/webp" });
    }
    await runJob();
    const d = diffFiles(meter.snapshot(), { request: emptyFileTotals(), deferred: emptyFileTotals() });
    expect(d.deferred.puts).toBe(1);
    expect(d.deferred.putBytes).toBe(7);
    expect(d.request.puts).toBe(0);
  });

  it("installs itself in place of deps.files", async () => {
    const meter = new FileStoreMeter();
    const deps = { files: memoryStore() };
    meter.install(deps);
    await deps.files.get("x");
    expect(meter.snapshot().request.gets).toBe(1);
  });
});

describe("s3Requests", () => {
  it("prices presigned URLs as the GETs clients make and leaves out free deletes", () => {
    expect(s3Requests({ puts: 2, putBytes: 9, gets: 1, getBytes: 3, presigns: 4, deletes: 5, deletedKeys: 5 })).toEqual({ put: 2, get: 5 });
  });
});
