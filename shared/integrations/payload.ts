import { JsonableError } from "../errors.js";
import type { WebhookRequest } from "./types.js";

/**
 * 400 `BAD_REQUEST` for a webhook payload that is not what its integration
 * needs, naming the missing or mistyped value as Zulip's `WildValue`
 * accessors do (`payload["pull_request"]["title"] is missing`).
 */
export class WebhookPayloadError extends JsonableError {
  constructor(msg: string) {
    super(msg);
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A read-only view of a parsed JSON value that knows its path, so that
 * every failed access throws a {@link WebhookPayloadError} naming exactly
 * what was missing or of the wrong type. Integrations read payloads only
 * through it: a sender's surprise becomes a 400, never a 500.
 */
export class Payload {
  constructor(
    readonly value: Json | undefined,
    readonly path: string = "payload",
  ) {}

  /** The member `key` of an object (which must exist). */
  get(key: string): Payload {
    return this.opt(key).required();
  }

  /** The member `key` of an object, possibly missing (test with {@link exists}). */
  opt(key: string): Payload {
    const obj = this.object();
    return new Payload(Object.hasOwn(obj, key) ? obj[key] : undefined, `${this.path}[${JSON.stringify(key)}]`);
  }

  /** Whether the value is present and not JSON `null`. */
  exists(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  /** This value, which must be present (JSON `null` counts as present). */
  required(): Payload {
    if (this.value === undefined) throw new WebhookPayloadError(`${this.path} is missing`);
    return this;
  }

  str(): string {
    if (typeof this.required().value !== "string") throw new WebhookPayloadError(`${this.path} is not a string`);
    return this.value as string;
  }

  /** The string, or `fallback` when missing or null. */
  strOr<T>(fallback: T): string | T {
    return this.exists() ? this.str() : fallback;
  }

  num(): number {
    if (typeof this.required().value !== "number") throw new WebhookPayloadError(`${this.path} is not a number`);
    return this.value as number;
  }

  /** The number, or `fallback` when missing or null. */
  numOr<T>(fallback: T): number | T {
    return this.exists() ? this.num() : fallback;
  }

  bool(): boolean {
    if (typeof this.required().value !== "boolean") throw new WebhookPayloadError(`${this.path} is not a boolean`);
    return this.value as boolean;
  }

  /** The elements of an array. */
  list(): Payload[] {
    const value = this.required().value;
    if (!Array.isArray(value)) throw new WebhookPayloadError(`${this.path} is not a list`);
    return value.map((item, i) => new Payload(item, `${this.path}[${i}]`));
  }

  /** The keys of an object. */
  keys(): string[] {
    return Object.keys(this.object());
  }

  private object(): { [key: string]: Json } {
    const value = this.required().value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new WebhookPayloadError(`${this.path} is not a dict`);
    }
    return value;
  }
}

/**
 * The request's JSON body as a {@link Payload}. Like Zulip's
 * `JsonBodyPayload`, the body is read as JSON whatever its declared content
 * type (many senders post JSON labelled as a form); a form body that is not
 * JSON is read from its `payload` field (Slack-compatible senders).
 * Throws {@link WebhookPayloadError} "Malformed JSON" for a body that is
 * neither.
 */
export function jsonPayload(request: WebhookRequest): Payload {
  const parsed = parseJson(request.body);
  if (parsed !== undefined) return new Payload(parsed);
  if (request.contentType === "application/x-www-form-urlencoded") {
    const field = new URLSearchParams(request.body).get("payload");
    const fromForm = field === null ? undefined : parseJson(field);
    if (fromForm !== undefined) return new Payload(fromForm);
  }
  throw new WebhookPayloadError("Malformed JSON");
}

function parseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}
