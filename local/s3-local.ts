import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';

export interface S3Local {
  endpoint: string;
  stop(): Promise<void>;
}

/** s3rver stores objects as files under `directory`; the bucket is created on start. */
export async function startS3Local({ port, directory, bucket }: { port: number; directory: string; bucket: string }): Promise<S3Local> {
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({ port, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => server.close(),
  };
}
