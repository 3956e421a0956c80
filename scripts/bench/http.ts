import { Agent, request } from "node:http";
import { gzipSync } from "node:zlib";

/**
 * The load drivers' HTTP client: `node:http` over one keep-alive agent
 * (no socket limit, so 500 long polls hold 500 connections), parameters
 * encoded the way the Python `zulip` client does (strings raw, everything
 * else JSON; query string for GET, form body otherwise), HTTP Basic auth
 * with email and API key. Only ever pointed at the local stack on 127.0.0.1.
 */

/** A user as the API sees it. */
export interface Credentials {
  email: string;
  apiKey: string;
}

export interface ApiResult {
  status: number;
  body: Record<string, any>;
  /** Wall time of the request, milliseconds. */
  ms: number;
}

/** The requests whose largest answer the report shows (`METHOD path`, path without query). */
export const SIZED_REQUESTS = ["GET /messages", "POST /register"] as const;
const sized: ReadonlySet<string> = new Set(SIZED_REQUESTS);
/** This thread's largest answer body per sized request (kept as received; compressed only when asked). */
const largest = new Map<string, Buffer>();

/** The size of one answer body: as sent uncompressed, and gzipped as the server's `gzip` coding sends it. */
export interface ResponseSize {
  bytes: number;
  gzipBytes: number;
}

/**
 * The largest answer body this thread's clients received per sized request
 * ({@link SIZED_REQUESTS}): bytes as received (the bench asks for no
 * content coding), and after `gzipSync` at its default level, the call the
 * server's `gzip` coding makes. Computed once here, so the measured
 * requests pay nothing.
 */
export function largestResponses(): Record<string, ResponseSize> {
  const out: Record<string, ResponseSize> = {};
  for (const [key, body] of largest) out[key] = { bytes: body.length, gzipBytes: gzipSync(body).length };
  return out;
}

/** The larger of two threads' {@link largestResponses}, per request. */
export function mergeLargest(a: Record<string, ResponseSize>, b: Record<string, ResponseSize>): Record<string, ResponseSize> {
  const out = { ...a };
  for (const [key, size] of Object.entries(b)) if (!out[key] || out[key].bytes < size.bytes) out[key] = size;
  return out;
}

function noteSize(method: string, path: string, body: Buffer): void {
  const key = `${method} ${path}`;
  if (!sized.has(key)) return;
  if ((largest.get(key)?.length ?? -1) < body.length) largest.set(key, body);
}

/** A keep-alive client for one base URL. */
export class ApiClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });
  private readonly host: string;
  private readonly port: number;

  /** @param baseUrl `http://127.0.0.1:<port>`; any other host is refused (the bench only loads this machine) */
  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") throw new Error(`refusing to load ${url.hostname}`);
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  /**
   * Calls `/api/v1<path>`. Resolves with any HTTP status; rejects on a
   * network error, on `timeoutMs` without an answer, or when `signal` aborts.
   */
  call(
    user: Credentials,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    path: string,
    params: Record<string, unknown> = {},
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<ApiResult> {
    const encoded = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined) encoded.set(k, typeof v === "string" ? v : JSON.stringify(v));
    }
    const qs = encoded.toString();
    const body = method === "GET" ? undefined : qs;
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`,
      "user-agent": "ZulipBench/1.0",
    };
    if (body !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    const start = performance.now();
    return new Promise<ApiResult>((resolve, reject) => {
      const req = request(
        {
          host: this.host,
          port: this.port,
          method,
          path: `/api/v1${path}${method === "GET" && qs ? `?${qs}` : ""}`,
          headers,
          agent: this.agent,
          signal: options.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const ms = performance.now() - start;
            const raw = Buffer.concat(chunks);
            noteSize(method, path, raw);
            const text = raw.toString("utf8");
            let parsed: Record<string, any>;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = { raw: text };
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, ms });
          });
          res.on("error", reject);
        },
      );
      req.setTimeout(options.timeoutMs ?? 60_000, () => req.destroy(new Error(`timeout after ${options.timeoutMs ?? 60_000} ms: ${method} ${path}`)));
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Closes every pooled connection. */
  close(): void {
    this.agent.destroy();
  }
}
