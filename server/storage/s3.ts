import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { byteCounter } from './local';
import { checkKey, NotStored, TooLarge, type FileStorage } from './storage';

/** Where an S3-compatible store is and how to reach it (config.ts reads it). */
export type S3Settings = {
  bucket: string;
  /** http(s) URL of a non-AWS endpoint (MinIO, R2, a local test server); AWS when unset. */
  endpoint?: string;
  region: string;
  /** Path-style addressing (MinIO and most self-hosted servers need it). */
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (AWS_ACCESS_KEY_ID..., instance roles). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prefix of every key in the bucket ('' by default). */
  prefix?: string;
};

const missing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');

/**
 * S3-compatible storage through the AWS SDK v3. Bytes are streamed both ways: a put is a
 * multipart upload (lib-storage, 5 MiB parts, at most 2 parts in memory) unless its size is
 * known, a get answers the response's stream. Checksums are computed only when an operation
 * requires them: MinIO, R2 and test servers do not all accept the SDK's default CRC headers.
 */
export const createS3Storage = (s: S3Settings): FileStorage => {
  const client = new S3Client({
    region: s.region,
    endpoint: s.endpoint,
    forcePathStyle: s.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(s.accessKeyId && s.secretAccessKey
      ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }
      : {}),
  });
  const prefix = s.prefix ?? '';
  const keyOf = (key: string) => `${prefix}${checkKey(key)}`;
  return {
    kind: 's3',
    bucket: s.bucket,
    async put(key, body, opts = {}) {
      const counter = byteCounter(opts.maxBytes);
      let failure: unknown = null;
      body.once('error', (err) => {
        failure = err;
        counter.stream.destroy(err);
      });
      const counted = body.pipe(counter.stream);
      counter.stream.once('error', (err) => (failure ??= err));
      try {
        if (opts.size !== undefined) {
          if (opts.maxBytes !== undefined && opts.size > opts.maxBytes) {
            body.destroy();
            throw new TooLarge(opts.maxBytes);
          }
          await client.send(
            new PutObjectCommand({
              Bucket: s.bucket,
              Key: keyOf(key),
              Body: counted,
              ContentLength: opts.size,
              ContentType: opts.contentType,
            }),
          );
        } else {
          await new Upload({
            client,
            params: {
              Bucket: s.bucket,
              Key: keyOf(key),
              Body: counted,
              ContentType: opts.contentType,
            },
            queueSize: 2,
            leavePartsOnError: false,
          }).done();
        }
      } catch (err) {
        throw failure ?? err;
      }
      if (failure) throw failure;
      return { size: counter.size() };
    },
    async get(key, range) {
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket: s.bucket,
            Key: keyOf(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return res.Body as Readable;
      } catch (err) {
        if (missing(err)) throw new NotStored(key);
        throw err;
      }
    },
    async head(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: s.bucket, Key: keyOf(key) }));
        return { size: Number(res.ContentLength ?? 0), contentType: res.ContentType ?? null };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: s.bucket, Key: keyOf(key) }));
    },
    async presignPut(key, opts) {
      const command = new PutObjectCommand({
        Bucket: s.bucket,
        Key: keyOf(key),
        ContentType: opts.contentType,
        ...(opts.size !== undefined ? { ContentLength: opts.size } : {}),
      });
      const url = await getSignedUrl(client, command, {
        expiresIn: opts.expiresInS,
        signableHeaders: new Set(['content-type']),
      });
      return { url, headers: { 'content-type': opts.contentType } };
    },
    async close() {
      client.destroy();
    },
  };
};
