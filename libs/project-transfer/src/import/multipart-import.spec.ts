import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { MultipartError, readImportMultipart, TRUNCATED } from './multipart-import';

const BOUNDARY = 'xBOUNDARYx';
const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (name: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="export.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`;

describe(readImportMultipart.name, () => {
  let root: string;
  let n = 0;
  const dir = () => mkdtempSync(join(root, `upload-${++n}-`));
  beforeAll(() => (root = mkdtempSync(join(tmpdir(), 'multipart-spec-'))));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads the fields and stores the file of a complete form', async () => {
    const body = new PassThrough();
    const read = readImportMultipart(headers, body, dir(), 0);
    body.end(`${field('path', 'p')}${field('override_params[description]', 'd')}${fileHead('file')}0123456789\r\n--${BOUNDARY}--\r\n`);
    await expect(read).resolves.toEqual({ fields: { path: 'p' }, overrideParams: { description: 'd' }, fileBytes: 10 });
  });

  it('refuses a body that ends before its closing boundary, in a field or in the file', async () => {
    for (const text of [
      `${field('path', 'p')}${fileHead('file')}0123`,
      `${field('path', 'p')}--${BOUNDARY}\r\nContent-Disp`,
      `${fileHead('file')}${'x'.repeat(200_000)}`,
    ]) {
      const body = new PassThrough();
      const read = readImportMultipart(headers, body, dir(), 0);
      body.end(text);
      await expect(read).rejects.toEqual(new MultipartError(400, TRUNCATED));
    }
  });

  it('ends (and closes its file) when the request is closed in the middle of the file', async () => {
    const body = new PassThrough();
    const target = dir();
    const read = readImportMultipart(headers, body, target, 0);
    body.write(`${field('path', 'p')}${fileHead('file')}${'x'.repeat(100_000)}`);
    await new Promise((resolve) => setImmediate(resolve));
    body.emit('aborted');
    body.destroy(new Error('aborted'));
    await expect(read).rejects.toEqual(new MultipartError(400, 'upload interrupted'));
    // The write stream is closed: the directory can be removed at once.
    rmSync(target, { recursive: true });
    expect(readdirSync(root)).not.toContain(target);
  });

  it('drops another file part, even one cut short, without an unhandled error', async () => {
    const body = new PassThrough();
    const read = readImportMultipart(headers, body, dir(), 0);
    body.end(`${field('path', 'p')}${fileHead('other')}${'y'.repeat(100_000)}`);
    await expect(read).rejects.toEqual(new MultipartError(400, TRUNCATED));
  });

  it('answers 413 past the size limit', async () => {
    const body = new PassThrough();
    const read = readImportMultipart(headers, body, dir(), 1000);
    body.end(`${fileHead('file')}${'z'.repeat(5000)}\r\n--${BOUNDARY}--\r\n`);
    await expect(read).rejects.toEqual(new MultipartError(413, '413 Request Entity Too Large'));
  });
});
