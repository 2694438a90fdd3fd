import { GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { awsClientTimeouts, config } from '../config.ts';
import { tracer } from '../telemetry.ts';

let client: S3Client | undefined;

/** Created on first use; S3_ENDPOINT points it at s3rver (path-style, as s3rver needs). */
export function s3(): S3Client {
  if (!client) {
    const endpoint = config.s3Endpoint();
    client = new S3Client({
      ...awsClientTimeouts(),
      ...(endpoint
        ? {
            endpoint,
            forcePathStyle: true,
            region: config.region('us-east-1'),
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
          }
        : {}),
    });
    tracer.captureAWSv3Client(client);
  }
  return client;
}

export const bucketName = config.bucketName;

export async function putObject(key: string, body: Uint8Array | string, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: bucketName(), Key: key, Body: body, ContentType: contentType }));
}

/** The object's bytes, or undefined when there is no such key. */
export async function findObject(key: string): Promise<Uint8Array | undefined> {
  try {
    const { Body } = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
    return Body ? await Body.transformToByteArray() : undefined;
  } catch (error) {
    if (error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchKey')) return undefined;
    throw error;
  }
}

/** Every key under the prefix, in order. */
export async function listKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: prefix, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key as string));
    token = page.NextContinuationToken;
  } while (token);
  return keys.sort();
}
