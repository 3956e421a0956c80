import { CreateBucketCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

/** The local files bucket's name (the deployed one is named by CloudFormation). */
export const LOCAL_FILES_BUCKET = "zulip-files";

/**
 * Creates the files bucket in the S3 emulator that fauxqs serves on the same
 * endpoint as SQS (`startLocalSqs`). Path-style URLs: the emulator's host is
 * `127.0.0.1:<port>`, which has no bucket subdomains.
 * @returns the bucket name, for `FILES_BUCKET`
 */
export async function createLocalFilesBucket(endpoint: string): Promise<string> {
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: LOCAL_FILES_BUCKET }));
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name !== "BucketAlreadyOwnedByYou" && name !== "BucketAlreadyExists") throw err;
  } finally {
    client.destroy();
  }
  return LOCAL_FILES_BUCKET;
}

/**
 * The keys of the local files bucket's objects under `prefix` (every page),
 * for tests that check what a deletion left behind.
 */
export async function listLocalFiles(endpoint: string, prefix: string): Promise<string[]> {
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  const found: string[] = [];
  try {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: LOCAL_FILES_BUCKET, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) found.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return found;
}
