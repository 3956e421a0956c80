import { readdir, readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import PostalMime from "postal-mime";

/**
 * Reading the local stack's mailbox: the folder of `.eml` files the file
 * mailer writes (`shared/mail/file-mailer.ts`), for the development page
 * at `/emails` (`infra/local/emails-page.ts`). Never used on AWS.
 */

/** A file name the file mailer could have written: no folder, no path tricks. */
const EML_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.eml$/;

/** The most emails listed: a mailbox of a long-running `npm start` may hold thousands. */
export const MAILBOX_LIST_LIMIT = 500;

/** One email of the mailbox, as listed. */
export interface MailboxEntry {
  /** The file's name (`<time>-<template>-<pid>-<n>.eml`). */
  file: string;
  /** The `Date` header, as an ISO string ("" when missing). */
  date: string;
  /** The first recipient, `Name <address>` or the address. */
  to: string;
  subject: string;
  /** The `X-Zulip-Template` header. */
  template: string;
}

/** One email of the mailbox, read whole. */
export interface MailboxMessage extends MailboxEntry {
  from: string;
  replyTo: string;
  text: string;
  html: string;
  /** The file's bytes as text (headers and MIME parts). */
  raw: string;
}

/** Whether `file` is a name the mailbox may hold (checked before any path is built from it). */
export function isMailboxFile(file: string): boolean {
  return EML_NAME.test(file) && !file.includes("..");
}

/**
 * Lists the mailbox, newest first (by the time the file was written, then
 * by name), at most {@link MAILBOX_LIST_LIMIT} emails.
 * @returns the emails; none when the folder does not exist yet
 */
export async function listMailbox(dir: string): Promise<MailboxEntry[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isMailboxFile);
  } catch {
    return [];
  }
  const timed = await Promise.all(
    names.map(async (file) => ({ file, mtime: await stat(join(dir, file)).then((s) => s.mtimeMs, () => -1) })),
  );
  const newest = timed
    .filter((t) => t.mtime >= 0)
    .sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : a.file > b.file ? -1 : 0))
    .slice(0, MAILBOX_LIST_LIMIT);
  const entries = await Promise.all(newest.map(async ({ file }) => readMailboxMessage(dir, file)));
  return entries.filter((m): m is MailboxMessage => m !== undefined).map(({ file, date, to, subject, template }) => ({ file, date, to, subject, template }));
}

/**
 * Reads and parses one email of the mailbox.
 * @param file a name from {@link listMailbox}
 * @returns the message, or undefined when the name is not a mailbox file's or the file is gone
 */
export async function readMailboxMessage(dir: string, file: string): Promise<MailboxMessage | undefined> {
  if (!isMailboxFile(file)) return undefined;
  let raw: string;
  try {
    raw = await readFile(join(dir, file), "utf8");
  } catch {
    return undefined;
  }
  const parsed = await PostalMime.parse(raw);
  const header = (key: string) => parsed.headers.find((h) => h.key === key)?.value ?? "";
  const address = (a: { name?: string; address?: string } | undefined) =>
    !a ? "" : a.name ? `${a.name} <${a.address ?? ""}>` : (a.address ?? "");
  const date = parsed.date ? new Date(parsed.date) : undefined;
  return {
    file,
    date: date && !Number.isNaN(date.getTime()) ? date.toISOString() : "",
    to: address(parsed.to?.[0]),
    from: address(parsed.from),
    replyTo: address(parsed.replyTo?.[0]),
    subject: parsed.subject ?? "",
    template: header("x-zulip-template"),
    text: parsed.text ?? "",
    html: parsed.html ?? "",
    raw,
  };
}

/**
 * Deletes every email of the mailbox (the page's "clear" button).
 * @returns how many were deleted
 */
export async function clearMailbox(dir: string): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isMailboxFile);
  } catch {
    return 0;
  }
  const done = await Promise.all(names.map((file) => unlink(join(dir, file)).then(() => 1, () => 0)));
  return done.reduce<number>((a, b) => a + b, 0);
}
