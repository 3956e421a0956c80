import { Worker } from "node:worker_threads";
import type { Credentials, ResponseSize } from "./http.js";
import type { DeliverResult, DeliverTask, GetTask, PollStats, RequestStats, SendTask } from "./load.js";

/**
 * The main thread's handle on the load-driver worker thread. The worker is
 * a TypeScript module, so it starts through tsx's ESM hooks (Node 20 does
 * not pass the parent's loader to workers).
 */
export class DriverWorker {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor() {
    const entry = new URL("./driver-worker.ts", import.meta.url).href;
    this.worker = new Worker(`import { register } from "tsx/esm/api"; register(); await import(${JSON.stringify(entry)});`, {
      eval: true,
    });
    this.worker.on("message", (msg: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if (msg.ok) w.resolve(msg.result);
      else w.reject(new Error(`driver: ${msg.error}`));
    });
    this.worker.on("error", (err) => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    });
  }

  /**
   * Runs one operation in the worker.
   * @throws Error when the worker fails or does not answer within `timeoutMs`
   */
  run<T>(op: string, args: unknown, timeoutMs: number): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`driver op ${op} did not finish within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.worker.postMessage({ id, op, args });
    });
  }

  sends(task: SendTask, timeoutMs: number): Promise<RequestStats> {
    return this.run("send", task, timeoutMs);
  }

  gets(task: GetTask, timeoutMs: number): Promise<RequestStats & { messagesPerAnswer: number }> {
    return this.run("get", task, timeoutMs);
  }

  eventsRegister(baseUrl: string, users: { user: Credentials; stream: number }[], concurrency: number, timeoutMs: number): Promise<RequestStats> {
    return this.run("events.register", { baseUrl, users, concurrency }, timeoutMs);
  }

  eventsStart(): Promise<void> {
    return this.run("events.start", {}, 10_000);
  }

  eventsStats(): Promise<PollStats> {
    return this.run("events.stats", {}, 10_000);
  }

  eventsDeliver(task: DeliverTask, timeoutMs: number): Promise<DeliverResult> {
    return this.run("events.deliver", task, timeoutMs);
  }

  eventsStop(): Promise<PollStats | undefined> {
    return this.run("events.stop", {}, 15_000);
  }

  /** The largest answers the worker's clients received (`largestResponses` in the worker). */
  largestResponses(): Promise<Record<string, ResponseSize>> {
    return this.run("responses.largest", {}, 30_000);
  }

  /** Ends the worker thread. */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
