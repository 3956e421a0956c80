import { createReadStream } from "node:fs";
import { access, constants, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FilesDeps } from "../../deps.js";
import { JsonableError } from "../../errors.js";
import { bytesStream, extractTarball, TarballError } from "../../storage/tarball-extract.js";
import type { Row } from "./export-tables.js";

/** Where an archive to import is: a file on this machine, or an object of the files bucket (an export's `exports/…` key). */
export type ImportSource = { path: string } | { key: string };

/**
 * The archive a command line names: a readable local file when there is
 * one, else an object of the files bucket — its key (`exports/…`) or the
 * export's `export_url` (`…/user_avatars/<key>`).
 */
export async function importSourceOf(arg: string): Promise<ImportSource> {
  try {
    await access(arg, constants.R_OK);
    return { path: arg };
  } catch {
    const marker = "/user_avatars/";
    const at = arg.indexOf(marker);
    return { key: at >= 0 ? decodeURIComponent(arg.slice(at + marker.length).split("?")[0]!) : arg };
  }
}

/** An extracted export, read file by file. */
export interface ExportArchive {
  /** `realm.json`'s tables. */
  realm: Record<string, Row[]>;
  /** `messages-NNNNNN.json` then `usermessages-NNNNNN.json` names, each in order. */
  messageFiles: string[];
  userMessageFiles: string[];
  /** A JSON file of the archive; undefined when absent. @throws JsonableError when it is not JSON */
  json(name: string): Promise<unknown>;
  /** A file's bytes; undefined when absent (or outside the archive). */
  bytes(name: string): Promise<Buffer | undefined>;
  /** Removes the extracted files. */
  close(): Promise<void>;
}

/** The tables `realm.json` must hold for the archive to be an export of ours or Zulip's. */
const REQUIRED_TABLES = ["zerver_realm", "zerver_userprofile", "zerver_stream", "zerver_recipient"] as const;

const notAnExport = (why: string) => new JsonableError(`Not a Zulip data export: ${why}`);

/**
 * Extracts an export's `.tar.gz` into a temporary directory (streaming: a
 * file's bytes go to disk one entry at a time) and checks that it has
 * Zulip's export layout: a `realm.json` of `zerver_*` tables with one
 * realm, its users, streams and recipients. A top directory
 * (`zulip-export-…/realm.json`, as Zulip's own tarballs have) is accepted.
 * An object read from the files bucket is held in memory while it is extracted.
 * @throws JsonableError 400 `Cannot read <path>` / `No export at <key>` when the source is missing;
 *   `Not a Zulip data export: …` when the bytes are not a `.tar.gz` or the layout is not an export's
 */
export async function openExportArchive(deps: FilesDeps, source: ImportSource): Promise<ExportArchive> {
  let stream;
  if ("path" in source) {
    const info = await stat(source.path).catch(() => undefined);
    if (!info?.isFile()) throw new JsonableError(`Cannot read ${source.path}`);
    stream = createReadStream(source.path);
  } else {
    const bytes = await deps.files.get(source.key);
    if (!bytes) throw new JsonableError(`No export at ${source.key}`);
    stream = bytesStream(bytes);
  }
  const dir = await mkdtemp(join(tmpdir(), "zulip-import-"));
  const close = () => rm(dir, { recursive: true, force: true });
  try {
    let names: string[];
    try {
      names = await extractTarball(stream, dir);
    } catch (err) {
      if (err instanceof TarballError) throw notAnExport(err.message);
      throw err;
    }
    const realmJson = names.find((n) => n === "realm.json" || /^[^/]+\/realm\.json$/.test(n));
    if (!realmJson) throw notAnExport("it has no realm.json");
    const root = realmJson.slice(0, -"realm.json".length);
    const inRoot = names.filter((n) => n.startsWith(root)).map((n) => n.slice(root.length));
    const fileSet = new Set(inRoot);
    const pathOf = (name: string) => (fileSet.has(name) ? join(dir, root, name) : undefined);
    const json = async (name: string): Promise<unknown> => {
      const path = pathOf(name);
      if (!path) return undefined;
      try {
        return JSON.parse(await readFile(path, "utf8"));
      } catch {
        throw notAnExport(`${name} is not JSON`);
      }
    };
    const realm = (await json("realm.json")) as Record<string, unknown>;
    if (!realm || typeof realm !== "object") throw notAnExport("realm.json holds no tables");
    for (const table of REQUIRED_TABLES) {
      if (!Array.isArray(realm[table])) throw notAnExport(`realm.json has no ${table}`);
    }
    const realmRows = realm.zerver_realm as Row[];
    if (realmRows.length !== 1 || typeof realmRows[0]?.id !== "number") throw notAnExport("realm.json's zerver_realm is not one organization");
    const byName = (re: RegExp) => inRoot.filter((n) => re.test(n)).sort();
    return {
      realm: Object.fromEntries(Object.entries(realm).filter(([, v]) => Array.isArray(v))) as Record<string, Row[]>,
      messageFiles: byName(/^messages-\d+\.json$/),
      userMessageFiles: byName(/^usermessages-\d+\.json$/),
      json,
      bytes: async (name) => {
        const path = pathOf(name);
        return path ? readFile(path) : undefined;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The rows of one table in a JSON file of the archive (`{ "<table>": [...] }`); none when absent. */
export async function tableOf(archive: ExportArchive, file: string, table: string): Promise<Row[]> {
  const data = (await archive.json(file)) as Record<string, unknown> | undefined;
  const rows = data?.[table];
  return Array.isArray(rows) ? (rows as Row[]) : [];
}
