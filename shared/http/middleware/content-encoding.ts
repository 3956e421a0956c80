import { brotliCompressSync, constants as zlibConstants, deflateSync, gzipSync } from "node:zlib";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import Negotiator from "negotiator";
import { carriedBodyBytes, LAMBDA_RESPONSE_PAYLOAD_LIMIT } from "../../domain/response-budget.js";
import type { Logger } from "../../logger.js";
import { header } from "../raw-params.js";
import type { ApiMiddleware } from "./types.js";

/** The content codings this middleware produces, best first when a client weighs them equally. */
const CODINGS = ["br", "gzip", "deflate"] as const;
export type ContentCoding = (typeof CODINGS)[number];

const COMPRESS: Record<ContentCoding, (data: Buffer) => Buffer> = {
  // Brotli's default quality (11) takes seconds on megabytes of JSON; 5 is
  // about gzip's speed with a smaller result.
  br: (data) => brotliCompressSync(data, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (data) => gzipSync(data),
  deflate: (data) => deflateSync(data),
};

export interface ContentEncodingOptions {
  /** where a response over Lambda's payload limit is reported */
  log: () => Logger;
  /**
   * Bodies shorter than this many bytes are sent as they are: compressing
   * them saves less than the header and the base64 encoding cost.
   * @default 1024
   */
  minBytes?: number;
}

/**
 * Picks the coding to answer with from an `Accept-Encoding` header
 * (RFC 9110 §12.5.3, parsed by `negotiator`): the highest-weighted coding
 * this server produces, `*` standing for any not named; weight 0 refuses a
 * coding.
 * @param available the codings the response exists in (default: every coding this middleware produces)
 * @returns undefined for identity (no header, nothing acceptable)
 */
export function negotiateContentCoding<C extends ContentCoding = ContentCoding>(
  acceptEncoding: string | undefined,
  available: readonly C[] = CODINGS as readonly ContentCoding[] as readonly C[],
): C | undefined {
  if (!acceptEncoding) return undefined;
  // negotiator 1.x breaks ties by the server's `preferred` order; its @types (0.6) predate that option.
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }) as unknown as {
    encoding(available: string[], options: { preferred: string[] }): string | undefined;
  };
  const offered = CODINGS.filter((c) => (available as readonly string[]).includes(c));
  const best = negotiator.encoding([...offered], { preferred: [...offered] });
  return (offered as readonly string[]).includes(best ?? "") ? (best as C) : undefined;
}

function withVary(headers: Record<string, string | number | boolean>): Record<string, string | number | boolean> {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === "vary");
  if (!key) return { ...headers, vary: "Accept-Encoding" };
  const current = String(headers[key]);
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(current) ? headers : { ...headers, [key]: `${current}, Accept-Encoding` };
}

/**
 * Compresses response bodies for clients that accept it (middy `after`), as
 * `@middy/http-content-encoding` does: `br`, `gzip` or `deflate` chosen from
 * `Accept-Encoding`, the body sent base64-encoded with `isBase64Encoded`
 * (API Gateway decodes it), `Vary: Accept-Encoding` on every response it
 * sees. The compressed form is used only when its base64 is smaller than the
 * body as Lambda carries it, so compression never brings a response nearer
 * to Lambda's 6 MB payload limit; a response still over that limit is
 * logged as an error (on AWS it fails).
 * @throws Error at construction for an unknown option
 */
export function contentEncoding(options: ContentEncodingOptions): ApiMiddleware {
  for (const key of Object.keys(options)) {
    if (key !== "log" && key !== "minBytes") throw new Error(`contentEncoding: unknown option ${key}`);
  }
  const minBytes = options.minBytes ?? 1024;
  return {
    after: async (request) => {
      const response = request.response as APIGatewayProxyStructuredResultV2 | undefined;
      if (!response || typeof response.body !== "string") return;
      const headers = withVary({ ...(response.headers ?? {}) });
      response.headers = headers;
      const alreadyEncoded = Object.keys(headers).some((k) => k.toLowerCase() === "content-encoding");
      let carried = response.isBase64Encoded ? response.body.length : carriedBodyBytes(response.body);
      const coding = negotiateContentCoding(header(request.event, "accept-encoding"));
      if (coding && !alreadyEncoded && !response.isBase64Encoded && Buffer.byteLength(response.body) >= minBytes) {
        const encoded = COMPRESS[coding](Buffer.from(response.body, "utf8")).toString("base64");
        if (encoded.length < carried) {
          response.body = encoded;
          response.isBase64Encoded = true;
          response.headers = { ...headers, "content-encoding": coding };
          carried = encoded.length;
        }
      }
      if (carried > LAMBDA_RESPONSE_PAYLOAD_LIMIT) {
        (request.context.log ?? options.log()).error("response over Lambda's payload limit", {
          bytes: carried,
          coding: coding ?? "identity",
        });
      }
    },
  };
}
