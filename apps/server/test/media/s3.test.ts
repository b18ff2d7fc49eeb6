import { s3Storage } from '@campus/core';
import S3rver from 's3rver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { photoBehaviours } from './behaviours';

/** The S3 path through the official SDK, against an S3-compatible server started here (s3rver). */
describe('photos on S3-compatible storage', () => {
  photoBehaviours(async () => {
    const directory = mkdtempSync(join(tmpdir(), 'campus-s3-test-'));
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: 'campus-media', configs: [] }],
    });
    const { port } = await server.run();
    return {
      options: {
        storage: s3Storage({
          bucket: 'campus-media',
          endpoint: `http://127.0.0.1:${port}`,
          region: 'us-east-1',
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        }),
      },
      stop: async () => {
        await server.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  });
});
