import { Duration, RemovalPolicy } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as s3 from "aws-cdk-lib/aws-s3";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";

export interface FilesBucketProps {
  /** RETAIN for real organizations; DESTROY (with its objects) only for throw-away dev stacks. */
  removalPolicy: RemovalPolicy;
}

/**
 * The private S3 bucket of uploaded files, avatars, custom emoji,
 * organization icons and logos (`shared/storage/file-store.ts`).
 * Nothing is public: clients get short-lived presigned URLs from the API
 * after its access checks, as Zulip's S3 upload backend does.
 *
 * Versioning is off (a deleted attachment must be gone, not kept as a
 * noncurrent version that still costs storage); incomplete multipart
 * uploads are removed after a day.
 */
export class FilesBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: FilesBucketProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, "Bucket", {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      lifecycleRules: [{ id: "abort-incomplete-uploads", abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      // A throw-away stack's bucket is deleted only when empty: emptying it
      // would take a custom-resource Lambda with broad rights.
      removalPolicy: props.removalPolicy,
    });
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: "AwsSolutions-S1",
        reason:
          "Every object is read and written only by the service's Lambdas after the API's own access checks, " +
          "which the API's access log records per request; S3 server access logs would need a second bucket " +
          "and duplicate that record.",
      },
    ]);
  }

  /**
   * Lets `grantee` get, put and delete objects, and sign GET URLs (which
   * act with its rights): no listing, no ACLs, no bucket management.
   */
  grantObjectReadWrite(role: iam.Role): iam.Grant {
    const grant = iam.Grant.addToPrincipal({
      grantee: role,
      actions: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
      resourceArns: [this.bucket.arnForObjects("*")],
    });
    NagSuppressions.addResourceSuppressions(
      role,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "Object keys are random per upload (<realm_id>/<random path>/<name>), so the grant names every " +
            "object of the one files bucket; the actions are only get, put and delete of objects.",
          appliesTo: [{ regex: "/^Resource::<FilesBucket[A-Za-z0-9]+\\.Arn>\\/\\*$/" }],
        },
      ],
      true,
    );
    return grant;
  }
}
