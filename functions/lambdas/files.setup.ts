import { loadConfig } from "../../shared/config.js";
import { createDeps, type FilesDeps } from "../../shared/deps.js";
import { createS3FileStore } from "../../shared/storage/file-store.js";

/**
 * The `files` group's dependencies: `Deps` plus the S3 file store. Its
 * endpoints read and write the files bucket; no other API group builds a
 * file store, so no other group's bundle holds the S3 client.
 * @returns built once per cold start by the generated `functions/lambdas/files.ts`
 */
export function groupDeps(): FilesDeps {
  const config = loadConfig();
  return { ...createDeps(config), files: createS3FileStore(config) };
}
