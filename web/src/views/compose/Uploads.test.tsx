// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { useRenderHost } from "../test-host.js";
import { ApiError, type ApiClient } from "../../api/client.js";
import type { UploadFn, UploadOptions } from "../../api/upload.js";
import { Compose, UPLOAD_IN_PROGRESS, type ComposeProps } from "./Compose.js";

const host = useRenderHost();

/** An uploader whose uploads the test finishes, fails or watches being aborted. */
function fakeUploader() {
  const pending: { file: File; options: UploadOptions; resolve(url: string): void; reject(e: unknown): void }[] = [];
  const upload: UploadFn = (file, options = {}) =>
    new Promise((resolve, reject) => {
      const entry = { file, options, resolve: (url: string) => resolve({ url }), reject };
      options.signal?.addEventListener("abort", () => reject(new ApiError(0, "ABORTED", "cancelled")));
      pending.push(entry);
    });
  return { upload, pending };
}

function mount(overrides: Partial<ComposeProps> = {}) {
  const api: ApiClient = { call: async <T,>() => ({}) as T };
  const sent: string[] = [];
  const uploader = fakeUploader();
  const props: ComposeProps = {
    api,
    people: [],
    streams: [{ stream_id: 3, name: "general" }],
    target: { type: "stream", stream_id: 3, topic: "lunch" },
    enterSends: true,
    maxUploadSizeMib: 1,
    upload: uploader.upload,
    onSend: async (_t, content) => {
      sent.push(content);
    },
    ...overrides,
  };
  act(() => render(<Compose {...props} />, host()));
  return { sent, uploader };
}

const textarea = () => host().querySelector<HTMLTextAreaElement>("textarea")!;
const button = (name: string) => [...host().querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
const fileInput = () => host().querySelector<HTMLInputElement>('input[type="file"]')!;
const alertText = () => host().querySelector('[role="alert"]')?.textContent ?? null;

function choose(files: File[]) {
  const input = fileInput();
  Object.defineProperty(input, "files", { value: files, configurable: true });
  act(() => {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
}

describe("uploads from the compose box", () => {
  it('has an "Upload files" button over a hidden input that takes several files', () => {
    mount();
    expect(button("Upload files")?.getAttribute("type")).toBe("button");
    expect(fileInput().multiple).toBe(true);
    expect(fileInput().hidden).toBe(true);
  });

  it("shows the placeholder and progress while uploading, keeps Send disabled, then puts the link in", async () => {
    const { uploader, sent } = mount();
    choose([new File(["x".repeat(100)], "cat.png", { type: "image/png" })]);
    expect(textarea().value).toBe("[Uploading cat.png…]()\n");
    const progress = host().querySelector("progress")!;
    expect(progress.getAttribute("value")).toBe("0");
    act(() => uploader.pending[0]!.options.onProgress?.({ loaded: 50, total: 100 }));
    expect(host().querySelector("progress")!.getAttribute("value")).toBe("50");
    expect(host().querySelector<HTMLButtonElement>(".compose-send")!.disabled).toBe(true);

    // Enter while uploading refuses, in Zulip's words.
    await act(async () => {
      textarea().dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    });
    expect(alertText()).toBe(UPLOAD_IN_PROGRESS);
    expect(sent).toEqual([]);

    await act(async () => uploader.pending[0]!.resolve("/user_uploads/2/ab/x/cat.png"));
    expect(textarea().value).toBe("[cat.png](/user_uploads/2/ab/x/cat.png)\n");
    expect(host().querySelector("progress")).toBeNull();
    expect(host().querySelector<HTMLButtonElement>(".compose-send")!.disabled).toBe(false);
  });

  it("refuses a file over the limit before uploading, with Zulip's message", () => {
    const { uploader } = mount({ maxUploadSizeMib: 1 });
    choose([new File([new Uint8Array(1024 * 1024 + 1)], "big.bin")]);
    expect(uploader.pending).toEqual([]);
    expect(alertText()).toBe("big.bin exceeds the maximum file size for attachments (1 MB).");
    expect(textarea().value).toBe("");
  });

  it("shows the server's refusal and removes the placeholder", async () => {
    const { uploader } = mount();
    choose([new File(["x"], "a.txt")]);
    await act(async () => uploader.pending[0]!.reject(new ApiError(400, "REALM_UPLOAD_QUOTA", "Upload would exceed your organization's upload quota.")));
    expect(alertText()).toBe("Upload would exceed your organization's upload quota.");
    expect(textarea().value).toBe("");
  });

  it('"Cancel" aborts one upload and removes its placeholder, leaving the other', async () => {
    const { uploader } = mount();
    choose([new File(["x"], "one.txt"), new File(["y"], "two.txt")]);
    expect(textarea().value).toBe("[Uploading one.txt…]()\n[Uploading two.txt…]()\n");
    const cancels = [...host().querySelectorAll<HTMLButtonElement>(".compose-upload-cancel")];
    expect(cancels.map((b) => b.textContent)).toEqual(["Cancel", "Cancel"]);
    await act(async () => cancels[0]!.click());
    expect(uploader.pending[0]!.options.signal?.aborted).toBe(true);
    expect(textarea().value).toBe("[Uploading two.txt…]()\n");
    expect(alertText()).toBeNull();
    expect(host().querySelectorAll(".compose-upload")).toHaveLength(1);
  });

  it("uploads files dropped on the box and files pasted into the message", async () => {
    const { uploader } = mount();
    const dropped = new File(["d"], "dropped.png", { type: "image/png" });
    // Preact listens to `drop` where the element has `ondrop` (browsers) and to `Drop` where not (happy-dom).
    const named = (el: Element, type: string) => (`on${type}` in el ? type : type[0]!.toUpperCase() + type.slice(1));
    const drop = new Event(named(host().querySelector("form")!, "drop"), { bubbles: true, cancelable: true });
    Object.defineProperty(drop, "dataTransfer", { value: { files: [dropped], types: ["Files"] } });
    act(() => {
      host().querySelector("form")!.dispatchEvent(drop);
    });
    expect(uploader.pending.map((p) => p.file.name)).toEqual(["dropped.png"]);
    expect(drop.defaultPrevented).toBe(true);

    const pasted = new File(["p"], "image.png", { type: "image/png" });
    const paste = new Event(named(textarea(), "paste"), { bubbles: true, cancelable: true });
    Object.defineProperty(paste, "clipboardData", { value: { files: [], items: [{ kind: "file", getAsFile: () => pasted }] } });
    act(() => {
      textarea().dispatchEvent(paste);
    });
    expect(paste.defaultPrevented).toBe(true);
    expect(uploader.pending.map((p) => p.file.name)).toEqual(["dropped.png", "image.png"]);
  });
});
