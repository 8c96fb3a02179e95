import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/**
 * Hostile or unusual import input against the real gateway (its own DATA_DIR, so that its
 * upload and work directories can be listed): a relation line of 100 MiB without a newline,
 * an archive made by the tar binary as GitLab makes them, and uploads cut short.
 */
describe('Project import: hostile input never stops the service', () => {
  let gw: TestGateway;
  let dataDir: string;
  // Imports are limited to 6 a minute per user: each test that sends many has its own users.
  let uploader: { id: number; token: string };
  let leaver: { id: number; token: string };
  let after: { id: number; token: string };
  const port = () => Number(new URL(gw.baseUrl).port);
  const transferDir = (kind: 'imports' | 'work') => join(dataDir, 'project-transfer', kind);
  const list = (kind: 'imports' | 'work') => (existsSync(transferDir(kind)) ? readdirSync(transferDir(kind)) : []);
  const until = async <T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const upload = async (file: Buffer, fields: Record<string, string>, token = gw.rootToken) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([new Uint8Array(file)], { type: 'application/gzip' }), 'export.tar.gz');
    const response = await fetch(`${gw.baseUrl}/api/v4/projects/import`, { method: 'POST', headers: { 'PRIVATE-TOKEN': token }, body: form });
    return { status: response.status, body: (await response.json()) as any };
  };
  const waitImport = (id: number) =>
    until(
      () => api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/import`, { token: gw.rootToken }),
      (r) => ['finished', 'failed'].includes(r.body.import_status),
      `import of ${id}`,
    ).then((r) => r.body);
  const ready = async () => (await fetch(`${gw.baseUrl}/-/readiness`)).status;

  /** Sends `head` and `body` on a raw connection to the gateway; `end`: how the client stops. Resolves with what the server answered. */
  const raw = (head: string, body: Buffer | string, end: 'wait' | 'close'): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect(port(), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('connect', () => {
        socket.write(head);
        socket.write(body, () => {
          // 'close': the client goes away in the middle of its body (no answer can reach it).
          if (end === 'close') setImmediate(() => socket.destroy());
        });
      });
    });
  const boundary = 'cutShortBoundary';
  const formHead = (fileBytes: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\ncut-short\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n${fileBytes}`;
  const requestHead = (framing: string, token = uploader.token) =>
    `POST /api/v4/projects/import HTTP/1.1\r\nHost: 127.0.0.1\r\nPRIVATE-TOKEN: ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nConnection: close\r\n${framing}\r\n`;
  const chunked = (data: string) => `${Buffer.byteLength(data, 'latin1').toString(16)}\r\n${data}\r\n`;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-transfer-hostile-'));
    gw = await startTestGateway('project-transfer-hostile', { DATA_DIR: dataDir });
    uploader = await createUserWithToken(gw, 'uploader');
    leaver = await createUserWithToken(gw, 'leaver');
    after = await createUserWithToken(gw, 'after');
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("fails an archive whose relation is a 100 MiB line without a newline, in GitLab's words, and keeps nothing of it", async () => {
    // ~100 KB of gzip, generated as a stream: 100 MiB of 'a' in tree/project/issues.ndjson.
    const pack = tar.pack();
    const gz = buffer(pack.pipe(createGzip()));
    pack.entry({ name: 'VERSION' }, '0.2.4');
    pack.entry({ name: 'tree/project.json' }, '{"description":"huge line"}');
    const entry = pack.entry({ name: 'tree/project/issues.ndjson', size: 100 * 1024 * 1024 }) as unknown as Writable;
    const block = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 100; i++) if (!entry.write(block)) await new Promise((resolve) => entry.once('drain', resolve));
    entry.end();
    pack.finalize();
    const file = await gz;
    expect(file.length).toBeLessThan(1024 * 1024);

    const started = await upload(file, { path: 'huge-line' });
    expect(started.status).toBe(201);
    const status = await waitImport(started.body.id);
    expect(status).toMatchObject({ import_status: 'failed', import_error: 'JSON exceeds 64 MB limit in issues.ndjson' });
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${started.body.id}/issues`, { token: gw.rootToken })).body).toEqual([]);
    // The work directory and the upload are gone; the gateway answers.
    await until(
      () => [...list('work'), ...list('imports')],
      (left) => left.length === 0,
      'no import file left',
    );
    expect(await ready()).toBe(200);
  }, 120_000);

  it('imports an archive made by the tar binary from a directory (tar -czf x.tar.gz -C dir .), as GitLab makes them', async () => {
    // The archive is written beside the tree, not inside it: tar refuses a directory that
    // changes while it reads it ("file changed as we read it").
    const outer = mkdtempSync(join(tmpdir(), 'gitlab-export-'));
    const dir = join(outer, 'tree-root');
    try {
      mkdirSync(join(dir, 'tree', 'project'), { recursive: true });
      writeFileSync(join(dir, 'VERSION'), '0.2.4');
      writeFileSync(join(dir, 'tree', 'project.json'), JSON.stringify({ description: 'made by tar', visibility_level: 0 }));
      writeFileSync(join(dir, 'tree', 'project', 'labels.ndjson'), `${JSON.stringify({ title: 'from-tar', color: '#123456' })}\n`);
      writeFileSync(join(dir, 'tree', 'project', 'issues.ndjson'), `${JSON.stringify({ iid: 3, title: 'Made by tar', state: 'opened' })}\n`);
      const file = join(outer, 'x.tar.gz');
      execFileSync('tar', ['-czf', file, '-C', dir, '.']);
      expect(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })).toMatch(/^\.\/\n/m);
      const started = await upload(execFileSync('cat', [file]), { path: 'made-by-tar' });
      expect(started.status).toBe(201);
      expect(await waitImport(started.body.id)).toMatchObject({ import_status: 'finished', import_error: null });
      const p = `/api/v4/projects/${started.body.id}`;
      expect(((await api(gw.baseUrl, 'GET', `${p}/issues`, { token: gw.rootToken })).body as any[]).map((i) => [i.iid, i.title])).toEqual([[3, 'Made by tar']]);
      expect(((await api(gw.baseUrl, 'GET', `${p}/labels`, { token: gw.rootToken })).body as any[]).map((l) => l.name)).toEqual(['from-tar']);
      expect((await api(gw.baseUrl, 'GET', p, { token: gw.rootToken })).body.description).toBe('made by tar');
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers 400 to a form that ends before its closing boundary (Content-Length and chunked), keeping no file', async () => {
    const body = formHead('\x1f\x8b'.padEnd(50_000, 'x'));
    const expected = { message: '400 Bad request - multipart body ended before its closing boundary' };
    for (const [framing, payload] of [
      [`Content-Length: ${Buffer.byteLength(body, 'latin1')}\r\n`, Buffer.from(body, 'latin1')],
      ['Transfer-Encoding: chunked\r\n', Buffer.from(`${chunked(body)}0\r\n\r\n`, 'latin1')],
    ] as const) {
      const answer = await raw(requestHead(framing), payload, 'wait');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ''))).toEqual(expected);
    }
    expect(list('imports')).toEqual([]);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${encodeURIComponent('uploader/cut-short')}`, { token: gw.rootToken })).status).toBe(404);
  }, 60_000);

  it('forgets an upload whose client goes away in the middle of it (Content-Length and chunked), and goes on answering', async () => {
    const partial = Buffer.from(formHead('\x1f\x8b'.padEnd(300_000, 'y')), 'latin1');
    for (const [framing, payload] of [
      [`Content-Length: ${10 * 1024 * 1024}\r\n`, partial],
      ['Transfer-Encoding: chunked\r\n', Buffer.from(`${chunked(partial.toString('latin1'))}${(1024 * 1024).toString(16)}\r\nzzzz`, 'latin1')],
    ] as const) {
      await raw(requestHead(framing, leaver.token), payload, 'close');
      // The handler ends (its partial file is removed) rather than waiting forever.
      await until(
        () => list('imports'),
        (left) => left.length === 0,
        'the partial upload removed',
      );
      expect(await ready()).toBe(200);
    }
    // A chunked body whose framing breaks in the middle of the file: Node's HTTP parser refuses it (400) and closes.
    const broken = partial.toString('latin1');
    const small = formHead('\x1f\x8b'.padEnd(500, 'w'));
    for (const payload of [
      `${(Buffer.byteLength(small, 'latin1') + 1).toString(16)}\r\n${small}\r\n0\r\n\r\n`,
      `${(Buffer.byteLength(broken, 'latin1') + 10).toString(16)}\r\n${broken}XYZXYZXYZX\r\nnot-hex\r\n`,
      `${chunked(broken)}zz\r\n`,
    ]) {
      const answer = await raw(requestHead('Transfer-Encoding: chunked\r\n', leaver.token), Buffer.from(payload, 'latin1'), 'wait');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      // The handler ends (its partial file is removed) rather than waiting forever.
      await until(
        () => list('imports'),
        (left) => left.length === 0,
        'the partial upload removed',
      );
      expect(await ready()).toBe(200);
    }
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${encodeURIComponent('leaver/cut-short')}`, { token: gw.rootToken })).status).toBe(404);
    // The gateway still takes a complete upload.
    const started = await upload(Buffer.from('not an archive'), { path: 'after-cut' }, after.token);
    expect(started.status).toBe(201);
    expect(await waitImport(started.body.id)).toMatchObject({ import_status: 'failed', import_error: 'The file is not a gzip archive' });
    await until(
      () => list('imports'),
      (left) => left.length === 0,
      'the upload consumed',
    );
  }, 180_000);
});
