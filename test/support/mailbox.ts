import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import PostalMime from "postal-mime";

/** One email the local stack sent, as read back from its `.eml` file. */
export interface SentEmail {
  file: string;
  /** The `X-Zulip-Template` header: `invitation`, `password_reset`, `missed_message`, … */
  template: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every `http(s)` link in the plain-text body, in order. */
  links: string[];
  raw: string;
}

/** Reads every email in a local stack's mailbox (`stack.mailDir`), oldest first. */
export async function readMailbox(mailDir: string): Promise<SentEmail[]> {
  let names: string[];
  try {
    names = (await readdir(mailDir)).filter((n) => n.endsWith(".eml")).sort();
  } catch {
    return [];
  }
  return Promise.all(
    names.map(async (name) => {
      const raw = await readFile(join(mailDir, name), "utf8");
      const parsed = await PostalMime.parse(raw);
      const header = (key: string) => parsed.headers.find((h) => h.key === key)?.value ?? "";
      const text = parsed.text ?? "";
      return {
        file: name,
        template: header("x-zulip-template"),
        from: parsed.from?.address ?? "",
        to: parsed.to?.[0]?.address ?? "",
        subject: parsed.subject ?? "",
        text,
        html: parsed.html ?? "",
        links: [...text.matchAll(/https?:\/\/[^\s<>")]+/g)].map((m) => m[0]),
        raw,
      };
    }),
  );
}

/**
 * Waits until the mailbox holds an email that `match` accepts (checked
 * every 100 ms; mail is sent by the stack's worker after the request).
 * @param timeoutMs give up after this long @default 15000
 * @throws Error naming what the mailbox held when none matched in time
 */
export async function waitForEmail(mailDir: string, match: (email: SentEmail) => boolean, timeoutMs = 15_000): Promise<SentEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const emails = await readMailbox(mailDir);
    const found = emails.find(match);
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(`No matching email in ${mailDir}; it holds: ${emails.map((e) => `${e.template} to ${e.to}: ${e.subject}`).join("; ") || "nothing"}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
