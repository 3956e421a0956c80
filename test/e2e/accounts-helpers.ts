import { request as httpRequest } from "node:http";
import { expect } from "vitest";
import type { SentEmail } from "../support/mailbox.js";

/** An answer of {@link jsonFrom}: status, the headers the tests read, the parsed body. */
export interface FromResponse {
  status: number;
  retryAfter: string | undefined;
  body: Record<string, any>;
}

/**
 * Calls `/json<path>` without credentials from the loopback address `from`
 * (127.0.0.x: the local stack reports it as the request's source IP, which
 * the per-address mail limit counts), with a JSON body as the web app's
 * account pages send it.
 */
export function jsonFrom(baseUrl: string, from: string, method: string, path: string, params?: Record<string, unknown>): Promise<FromResponse> {
  const url = new URL(`${baseUrl}/json${path}`);
  const body = params === undefined ? undefined : JSON.stringify(params);
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers, localAddress: from },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            retryAfter: res.headers["retry-after"] as string | undefined,
            body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

let nextAddress = 10;
/** A loopback address no other test of the file used (127.0.0.10, .11, …). */
export function freshAddress(): string {
  return `127.0.0.${nextAddress++}`;
}

/** The key of a mailed account link (`…/<path>/<key>/`), checked against the expected URL form. */
export function linkKey(mail: SentEmail, baseUrl: string, path: string): string {
  const pattern = new RegExp(`^${baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${path}([a-z2-7]{24})/$`);
  const link = mail.links.find((l) => pattern.test(l));
  expect(link, `a ${path} link in: ${mail.links.join(" ")}`).toBeDefined();
  return pattern.exec(link!)![1]!;
}

/** The refusal of a confirmation link. */
export const linkError = (code: "CONFIRMATION_EXPIRED" | "CONFIRMATION_USED" | "CONFIRMATION_NOT_FOUND") => ({
  result: "error",
  msg: {
    CONFIRMATION_EXPIRED: "This confirmation link has expired or been deactivated.",
    CONFIRMATION_USED: "This confirmation link has already been used.",
    CONFIRMATION_NOT_FOUND: "This confirmation link does not exist or has been revoked.",
  }[code],
  code,
});
