// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { ApiError } from "./client.js";
import { createXhrUploader } from "./upload.js";

/** A stand-in XMLHttpRequest recording what is sent; the test answers it. */
class FakeXhr extends EventTarget {
  upload = new EventTarget();
  status = 0;
  statusText = "";
  responseText = "";
  withCredentials = false;
  opened: [string, string] | null = null;
  headers: Record<string, string> = {};
  body: FormData | null = null;
  aborted = false;
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.dispatchEvent(new Event("abort"));
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new Event("load"));
  }
}

function setup() {
  const xhrs: FakeXhr[] = [];
  const upload = createXhrUploader(
    () => {
      const x = new FakeXhr();
      xhrs.push(x);
      return x as unknown as XMLHttpRequest;
    },
    () => "csrftoken=tok123; other=1",
  );
  return { xhrs, upload };
}

describe("createXhrUploader", () => {
  it("posts the file as multipart to /json/user_uploads with the CSRF header and reports progress", async () => {
    const { xhrs, upload } = setup();
    const seen: number[] = [];
    const file = new File(["hello"], "a.txt", { type: "text/plain" });
    const done = upload(file, { onProgress: (p) => seen.push(p.loaded / p.total) });
    const xhr = xhrs[0]!;
    expect(xhr.opened).toEqual(["POST", "/json/user_uploads"]);
    expect(xhr.headers["X-CSRFToken"]).toBe("tok123");
    expect((xhr.body!.get("file") as File).name).toBe("a.txt");
    const progress = Object.assign(new Event("progress"), { lengthComputable: true, loaded: 3, total: 6 });
    xhr.upload.dispatchEvent(progress);
    xhr.answer(200, { result: "success", msg: "", url: "/user_uploads/2/ab/x/a.txt", uri: "/user_uploads/2/ab/x/a.txt" });
    await expect(done).resolves.toEqual({ url: "/user_uploads/2/ab/x/a.txt" });
    expect(seen).toEqual([0.5]);
  });

  it("rejects with the server's message and code", async () => {
    const { xhrs, upload } = setup();
    const done = upload(new File(["x"], "a.txt"));
    xhrs[0]!.answer(400, { result: "error", code: "BAD_REQUEST", msg: "Uploaded file is larger than the allowed limit of 4 MiB" });
    await expect(done).rejects.toMatchObject({ status: 400, code: "BAD_REQUEST", message: "Uploaded file is larger than the allowed limit of 4 MiB" });
  });

  it("aborts when the signal fires (code ABORTED) and reports a failed connection as NETWORK", async () => {
    const { xhrs, upload } = setup();
    const abort = new AbortController();
    const cancelled = upload(new File(["x"], "a.txt"), { signal: abort.signal });
    abort.abort();
    await expect(cancelled).rejects.toMatchObject({ code: "ABORTED" });
    expect(xhrs[0]!.aborted).toBe(true);

    const failed = upload(new File(["x"], "b.txt"));
    xhrs[1]!.dispatchEvent(new Event("error"));
    await expect(failed).rejects.toBeInstanceOf(ApiError);
    await expect(failed).rejects.toMatchObject({ code: "NETWORK", status: 0 });
  });
});
