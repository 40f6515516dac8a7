import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export const TEST_BUCKET = 'sitecommand-photos';

export interface TestS3 {
  /** The environment that points the app at this server, under its own prefix. */
  env: Record<string, string>;
  endpoint: string;
  close(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) in this process, on a free port, storing into a temp folder; each
 * call gets its own. It checks presigned addresses' expiry but not their signatures (see ADR 024).
 */
export async function startTestS3(prefix = 'photos'): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      STORAGE_URL: `s3://${TEST_BUCKET}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_REGION: 'us-east-1',
      // s3rver's built-in account.
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
