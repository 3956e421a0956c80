import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { extract } from "tar-stream";

/** Raised when the bytes are not a readable `.tar.gz`, or an entry's name leaves the target directory. */
export class TarballError extends Error {}

/** Whether an entry name stays inside the directory it is extracted to (no absolute path, no `..`). */
function safeEntryPath(dir: string, name: string): string | undefined {
  const clean = normalize(name.replace(/^\.\/+/, ""));
  if (clean === "." || clean.startsWith("..") || clean.startsWith(sep) || clean.includes(`${sep}..${sep}`) || /^[a-zA-Z]:/.test(clean)) return undefined;
  return join(dir, clean);
}

/**
 * Extracts a gzip-compressed tar archive into `dir`, streaming: one entry's
 * bytes at a time go to disk, so an archive of any size takes little
 * memory. Only regular files are written (directories are made as their
 * files need them; links and devices are skipped).
 * @param source the `.tar.gz` bytes as a stream (a file, or an object read from the files bucket)
 * @param dir an existing, empty directory
 * @returns the names of the files written, relative to `dir` (`/`-separated as in the archive)
 * @throws TarballError when the stream is not gzip or not tar, or an entry's name is absolute or climbs out with `..`
 */
export async function extractTarball(source: Readable, dir: string): Promise<string[]> {
  const names: string[] = [];
  const ex = extract();
  ex.on("entry", (header, stream, next) => {
    const target = header.type === "file" ? safeEntryPath(dir, header.name) : undefined;
    if (header.type === "file" && target === undefined) {
      stream.resume();
      next(new TarballError(`archive entry '${header.name}' is outside the archive`));
      return;
    }
    if (target === undefined) {
      stream.on("end", () => next());
      stream.resume();
      return;
    }
    mkdir(dirname(target), { recursive: true })
      .then(() => pipeline(stream, createWriteStream(target)))
      .then(() => {
        names.push(header.name.replace(/^\.\/+/, ""));
        next();
      }, next);
  });
  try {
    await pipeline(source, createGunzip(), ex);
  } catch (err) {
    if (err instanceof TarballError) throw err;
    throw new TarballError(`not a readable .tar.gz archive: ${err instanceof Error ? err.message : String(err)}`);
  }
  return names;
}

/** A stream of bytes held in memory (an object read whole from the files bucket). */
export function bytesStream(bytes: Uint8Array): Readable {
  return Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
}
