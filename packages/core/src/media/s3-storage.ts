import type { Readable } from 'node:stream';
import type { MediaStorage } from './storage';

export interface S3StorageOptions {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, R2, a test server); absent → AWS. Path-style when set. */
  endpoint?: string | undefined;
  region?: string | undefined;
  /** Explicit credentials (tests); absent → the SDK's usual chain (AWS_* variables, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * S3-compatible object storage through the official SDK (MEDIA_S3_BUCKET). The SDK (about 20 MB
 * resident) is loaded here, so a server storing on disk never holds it.
 */
export function s3Storage(options: S3StorageOptions): MediaStorage {
  const sdk = import('@aws-sdk/client-s3');
  const connected = sdk.then(
    ({ S3Client }) =>
      new S3Client({
        region: options.region ?? 'us-east-1',
        ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
      }),
  );
  // A failed load surfaces on the first call, not as an unhandled rejection at boot.
  connected.catch(() => {});
  const Bucket = options.bucket;
  return {
    kind: 's3',
    async put(name, data, contentType) {
      const [client, { PutObjectCommand }] = await Promise.all([connected, sdk]);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: name,
          Body: data,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async open(name) {
      const [client, { GetObjectCommand, NoSuchKey }] = await Promise.all([connected, sdk]);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: name }));
        return answer.Body as Readable;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey')
          return undefined;
        throw error;
      }
    },
    async remove(names) {
      const [client, { DeleteObjectsCommand }] = await Promise.all([connected, sdk]);
      for (let i = 0; i < names.length; i += 1000) {
        const Objects = names.slice(i, i + 1000).map((Key) => ({ Key }));
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      }
    },
  };
}
