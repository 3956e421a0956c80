import { installFileStore } from "../../shared/deps.js";
import { createS3FileStore } from "../../shared/storage/file-store.js";

/*
 * The `files` group's Lambda reads and writes the files bucket: it alone
 * among the API groups installs the S3 file store, so no other group's
 * bundle holds the S3 client.
 */
installFileStore(createS3FileStore);
