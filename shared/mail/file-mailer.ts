import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { composeRawEmail } from "./compose.js";
import type { Mailer } from "./mailer.js";

/**
 * The local stack's mailer: writes each email, as the raw message SES would
 * have sent, to `<dir>/<time>-<template>-<n>.eml`, where a developer opens
 * it (and `/emails` lists it).
 * @param dir the mailbox folder, created when missing
 * @param from the sender address the messages carry
 */
export function createFileMailer(dir: string, from: string, now: () => number): Mailer {
  let n = 0;
  return {
    async send(email) {
      const date = new Date(now());
      const raw = await composeRawEmail(email, from, date);
      await mkdir(dir, { recursive: true });
      const stamp = date.toISOString().replace(/[:.]/g, "-");
      n += 1;
      await writeFile(join(dir, `${stamp}-${email.template}-${process.pid}-${n}.eml`), raw);
    },
  };
}
