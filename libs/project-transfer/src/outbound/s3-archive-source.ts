import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Injectable } from '@nestjs/common';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteLimit } from '../archive/tar-archive';
import { MAX_REMOTE_IMPORT_BYTES, OutboundTransferError } from './outbound-transfer';

export interface S3Location {
  region: string;
  bucket: string;
  key: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * `POST /projects/remote-import-s3`: streams an object from S3 (AWS SDK v3) to
 * `<dir>/archive.tar.gz`, bounded by 10 GiB and `max_import_size`. The credentials live only
 * in the client of this one call.
 */
@Injectable()
export class S3ArchiveSource {
  /** Replaced by tests: how a client is made for a location. */
  clientFor = (location: S3Location): S3Client =>
    new S3Client({ region: location.region, credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey } });

  async download(location: S3Location, dir: string, maxBytes: number): Promise<number> {
    const client = this.clientFor(location);
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }));
      const body = object.Body as Readable | undefined;
      if (!body) throw new OutboundTransferError('The file could not be fetched from S3');
      const length = object.ContentLength ?? 0;
      if (length > MAX_REMOTE_IMPORT_BYTES || (maxBytes > 0 && length > maxBytes)) {
        // Not read: closed at once (with a listener, so a late socket error is no crash).
        body.on('error', () => undefined).destroy();
        throw new OutboundTransferError('Content length is too big');
      }
      await pipeline(
        body,
        byteLimit(maxBytes > 0 ? maxBytes : MAX_REMOTE_IMPORT_BYTES, 'Content length is too big'),
        createWriteStream(join(dir, 'archive.tar.gz'), { flags: 'wx', mode: 0o600 }),
      );
      return length;
    } finally {
      client.destroy();
    }
  }
}
