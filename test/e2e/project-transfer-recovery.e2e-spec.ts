import { getQueueToken } from '@nestjs/bullmq';
import { S3Client } from '@aws-sdk/client-s3';
import {
  PROJECT_TRANSFER,
  ProjectExportEntity,
  ProjectImportStateEntity,
  ProjectTransferRecovery,
  S3ArchiveSource,
  TransferFiles,
  exportJobId,
  importJobId,
} from '@app/project-transfer';
import type { Queue } from 'bullmq';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** A GitLab export archive with one issue (and its note) titled `title`. */
async function archiveWithIssue(title: string): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk) => void chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  pack.entry({ name: 'VERSION' }, '0.2.4');
  pack.entry({ name: 'tree/project.json' }, JSON.stringify({ description: 'archived', visibility_level: 0 }));
  pack.entry(
    { name: 'tree/project/issues.ndjson' },
    `${JSON.stringify({ iid: 7, title, state: 'opened', author_id: 1, notes: [{ note: 'a note', author_id: 1, author: { name: 'Someone' } }] })}\n`,
  );
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/**
 * Transfers whose job Redis lost are rebuilt from PostgreSQL by `ProjectTransferRecovery` and run
 * to the end; and the S3 import (feature flag on) against a loopback S3-compatible endpoint.
 */
describe('Project export and import: Redis loss and S3', () => {
  let gw: TestGateway;
  let queue: Queue;
  let recovery: ProjectTransferRecovery;
  let rootId: number;
  let s3: Server;
  let s3Requests: Array<{ method: string; url: string; authorization: string }> = [];
  let s3Object: Buffer;

  const root = () => ({ token: gw.rootToken });
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const newProject = async (path: string): Promise<number> => {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: path, path, initialize_with_readme: true } });
    expect(created.status).toBe(201);
    return created.body.id as number;
  };
  const exportStatus = (id: number) => api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/export`, root()).then((r) => r.body);
  const importStatus = (id: number) => api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/import`, root()).then((r) => r.body);
  const eventsOf = async (type: string, projectId: number) =>
    (
      (await gw.dataSource.query(`SELECT payload FROM outbox_events WHERE payload->>'type' = $1 AND (payload->>'project_id')::int = $2`, [
        type,
        projectId,
      ])) as Array<{ payload: any }>
    ).map((r) => r.payload);
  const issueTitles = async (id: number) =>
    ((await api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/issues`, root())).body as Array<{ title: string }>).map((i) => i.title);

  beforeAll(async () => {
    gw = await startTestGateway('project-transfer-recovery', { FEATURE_IMPORT_PROJECT_FROM_REMOTE_FILE_S3: 'true' });
    queue = gw.app.get<Queue>(getQueueToken(PROJECT_TRANSFER.name), { strict: false });
    recovery = gw.app.get(ProjectTransferRecovery, { strict: false });
    rootId = (await api(gw.baseUrl, 'GET', '/api/v4/user', root())).body.id as number;
    s3 = createServer((req: IncomingMessage, res) => {
      s3Requests.push({ method: req.method!, url: req.url!, authorization: String(req.headers.authorization ?? '') });
      req.resume();
      if (req.method === 'GET' && req.url?.split('?')[0] === '/transfer-bucket/exports/project.tar.gz') {
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(s3Object.length), etag: '"1"' });
        res.end(s3Object);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
    });
    await new Promise<void>((resolve) => s3.listen(0, '127.0.0.1', resolve));
    const port = (s3.address() as AddressInfo).port;
    // Test-only: the client of each request points at the loopback endpoint (path-style), with the request's region and credentials.
    gw.app.get(S3ArchiveSource, { strict: false }).clientFor = (location) =>
      new S3Client({
        region: location.region,
        endpoint: `http://127.0.0.1:${port}`,
        forcePathStyle: true,
        credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
      });
  }, 120_000);

  afterAll(async () => {
    s3?.close();
    await gw?.close();
  });

  it('enqueues again an export whose job Redis lost (once the record is a recovery interval old), and it finishes', async () => {
    const projectId = await newProject('lost-export');
    // The request was recorded, then Redis restarted empty: the row says queued, no job exists.
    await gw.dataSource.manager.insert(ProjectExportEntity, {
      projectId,
      status: 'queued',
      generation: 1,
      userId: rootId,
      description: 'rebuilt',
      uploadUrl: null,
      uploadMethod: null,
      error: null,
      correlationId: null,
      fileKey: null,
      fileName: null,
      fileSize: null,
      expiresAt: null,
    });
    await expect(queue.getJob(exportJobId(projectId, 1))).resolves.toBeUndefined();
    // Too recent: a request whose job is on its way is left alone.
    await expect(recovery.sweep()).resolves.toBe(0);
    expect((await exportStatus(projectId)).export_status).toBe('queued');

    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(1);
    const finished = await until(
      () => exportStatus(projectId),
      (s) => ['finished', 'failed'].includes(s.export_status),
      'the rebuilt export',
    );
    expect(finished.export_status).toBe('finished');
    expect(finished._links.api_url).toContain(`/projects/${projectId}/export/download`);
    const download = await fetch(`${gw.baseUrl}/api/v4/projects/${projectId}/export/download`, { headers: { 'PRIVATE-TOKEN': gw.rootToken } });
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // Finished: nothing left to rebuild; one event, written with the status.
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(0);
    const [event] = await eventsOf('project_export.finished', projectId);
    expect(event).toMatchObject({
      actor: rootId,
      target: { type: 'project', id: projectId },
      data: { project_id: projectId, generation: 1, uploaded: false, file_name: expect.stringMatching(/_export\.tar\.gz$/), counts: { issues: 0 } },
    });
    expect(event.data.file_size).toBeGreaterThan(0);
  });

  it('leaves alone an export whose job is still in Redis, and replaces a job that completed without moving the record', async () => {
    const projectId = await newProject('stuck-export');
    await gw.dataSource.manager.insert(ProjectExportEntity, {
      projectId,
      status: 'started',
      generation: 5,
      userId: rootId,
      description: null,
      uploadUrl: null,
      uploadMethod: null,
      error: null,
      correlationId: null,
      fileKey: null,
      fileName: null,
      fileSize: null,
      expiresAt: null,
    });
    // A job waiting (delayed) under the record's id: not enqueued twice.
    await queue.add(PROJECT_TRANSFER.jobs.EXPORT_PROJECT, { projectId, generation: 5 }, { jobId: exportJobId(projectId, 5), delay: 3_600_000 });
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(0);
    await (await queue.getJob(exportJobId(projectId, 5)))!.remove();

    // A job under that id that completed without finishing the record (it served another generation): removed and enqueued again.
    await queue.add(PROJECT_TRANSFER.jobs.EXPORT_PROJECT, { projectId, generation: 4 }, { jobId: exportJobId(projectId, 5) });
    await until(
      async () => (await queue.getJob(exportJobId(projectId, 5)))?.isCompleted(),
      (done) => done === true,
      'the outdated job',
    );
    expect((await exportStatus(projectId)).export_status).toBe('started');
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(1);
    const finished = await until(
      () => exportStatus(projectId),
      (s) => ['finished', 'failed'].includes(s.export_status),
      'the rebuilt export',
    );
    expect(finished.export_status).toBe('finished');
  });

  it('enqueues again an import whose job Redis lost, from its stored archive, and imports it', async () => {
    const projectId = await newProject('lost-import');
    const stored = await gw.app.get(TransferFiles, { strict: false }).newDirectory('imports', 'lost');
    writeFileSync(join(stored.path, 'archive.tar.gz'), await archiveWithIssue('Rebuilt from PostgreSQL'));
    await gw.dataSource.manager.insert(ProjectImportStateEntity, {
      projectId,
      status: 'scheduled',
      importType: 'gitlab_project',
      userId: rootId,
      correlationId: 'lost-request',
      error: null,
      fileKey: `${stored.key}/archive.tar.gz`,
      sourceUrl: null,
      overrideParams: {},
      replacesProjectId: null,
      finalPath: null,
      finalName: null,
      skippedRelations: {},
    });
    await expect(queue.getJob(importJobId(projectId))).resolves.toBeUndefined();
    await expect(recovery.sweep()).resolves.toBe(0);
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(1);
    const done = await until(
      () => importStatus(projectId),
      (s) => ['finished', 'failed'].includes(s.import_status),
      'the rebuilt import',
    );
    expect(done).toMatchObject({ import_status: 'finished', import_error: null, correlation_id: 'lost-request' });
    expect(await issueTitles(projectId)).toEqual(['Rebuilt from PostgreSQL']);
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(0);
    expect(await eventsOf('project_import.finished', projectId)).toEqual([
      expect.objectContaining({
        data: {
          project_id: projectId,
          import_type: 'gitlab_project',
          correlation_id: 'lost-request',
          counts: { issues: 1, notes: 1 },
          skipped_relations: {},
          failed_relations: 0,
          replaced_project_id: null,
        },
      }),
    ]);
  });

  it('records a failed import (its archive is gone) with its event', async () => {
    const projectId = await newProject('gone-import');
    await gw.dataSource.manager.insert(ProjectImportStateEntity, {
      projectId,
      status: 'started',
      importType: 'gitlab_project',
      userId: rootId,
      correlationId: 'gone-request',
      error: null,
      fileKey: 'imports/nothing-here/archive.tar.gz',
      sourceUrl: null,
      overrideParams: {},
      replacesProjectId: null,
      finalPath: null,
      finalName: null,
      skippedRelations: {},
    });
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(1);
    const done = await until(
      () => importStatus(projectId),
      (s) => ['finished', 'failed'].includes(s.import_status),
      'the import',
    );
    expect(done).toMatchObject({ import_status: 'failed', import_error: 'The archive is missing' });
    expect(await eventsOf('project_import.failed', projectId)).toEqual([
      expect.objectContaining({
        data: { project_id: projectId, import_type: 'gitlab_project', correlation_id: 'gone-request', import_error: 'The archive is missing' },
      }),
    ]);
    expect(await eventsOf('project_import.finished', projectId)).toEqual([]);
  });

  /**
   * A process that ended in the middle of an import, as PostgreSQL keeps it: the record still
   * `started` after `attempts` starts, its work directory (named in `work_key`) left on disk
   * with what it had extracted, and the job gone (Redis restarted empty, or BullMQ gave up the
   * stalled job).
   */
  const diedDuringImport = async (path: string, attempts: number) => {
    const projectId = await newProject(path);
    const files = gw.app.get(TransferFiles, { strict: false });
    const stored = await files.newDirectory('imports', path);
    writeFileSync(join(stored.path, 'archive.tar.gz'), await archiveWithIssue(`Imported after ${attempts} interruption`));
    const work = await files.newDirectory('work', `import-${projectId}`);
    mkdirSync(join(work.path, 'tree', 'project'), { recursive: true });
    writeFileSync(join(work.path, 'tree', 'project', 'issues.ndjson'), Buffer.alloc(1024 * 1024, 0x61));
    await gw.dataSource.manager.insert(ProjectImportStateEntity, {
      projectId,
      status: 'started',
      importType: 'gitlab_project',
      userId: rootId,
      correlationId: `${path}-request`,
      error: null,
      fileKey: `${stored.key}/archive.tar.gz`,
      sourceUrl: null,
      overrideParams: {},
      replacesProjectId: null,
      finalPath: null,
      finalName: null,
      skippedRelations: {},
      attempts,
      workKey: work.key,
    });
    return { projectId, upload: stored.path, work: work.path };
  };
  const INTERRUPTED_TWICE = 'The import was interrupted 2 times (its process ended while it ran): it is not started again';
  const attemptsOf = async (projectId: number) => (await gw.dataSource.manager.findOneByOrFail(ProjectImportStateEntity, { projectId })).attempts;

  it('starts again, once, an import whose process ended while it ran, removing what the dead run left', async () => {
    const { projectId, upload, work } = await diedDuringImport('died-once', 1);
    expect(existsSync(work)).toBe(true);
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(1);
    const done = await until(
      () => importStatus(projectId),
      (s) => ['finished', 'failed'].includes(s.import_status),
      'the retried import',
    );
    expect(done).toMatchObject({ import_status: 'finished', import_error: null });
    expect(await issueTitles(projectId)).toEqual(['Imported after 1 interruption']);
    expect(await attemptsOf(projectId)).toBe(2);
    expect(existsSync(work)).toBe(false);
    expect(existsSync(upload)).toBe(false);
    expect((await gw.dataSource.manager.findOneByOrFail(ProjectImportStateEntity, { projectId })).workKey).toBeNull();
  });

  it('fails, and does not start a third time, an import whose process ended twice while it ran; nothing of it stays on disk', async () => {
    const { projectId, upload, work } = await diedDuringImport('died-twice', 2);
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(1);
    const done = await until(
      () => importStatus(projectId),
      (s) => ['finished', 'failed'].includes(s.import_status),
      'the poison import',
    );
    expect(done).toMatchObject({ import_status: 'failed', import_error: INTERRUPTED_TWICE, correlation_id: 'died-twice-request' });
    expect(await issueTitles(projectId)).toEqual([]);
    expect(existsSync(work)).toBe(false);
    expect(existsSync(upload)).toBe(false);
    expect(await eventsOf('project_import.failed', projectId)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ project_id: projectId, import_error: INTERRUPTED_TWICE }) }),
    ]);
    // Failed: never enqueued again.
    await expect(recovery.rebuild(new Date(Date.now() + 1_000))).resolves.toBe(0);
  });

  it('imports from an S3-compatible endpoint with the flag on; the credentials are used for the request and kept nowhere', async () => {
    s3Object = await archiveWithIssue('From S3');
    s3Requests = [];
    const body = {
      path: 'from-s3',
      region: 'eu-west-1',
      bucket_name: 'transfer-bucket',
      file_key: 'exports/project.tar.gz',
      access_key_id: 'AKIATESTTRANSFER',
      secret_access_key: 'secret-never-stored-0123456789',
    };
    const accepted = await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import-s3', { ...root(), body });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ path: 'from-s3', import_status: 'scheduled' });
    expect(s3Requests).toHaveLength(1);
    expect(s3Requests[0]).toMatchObject({ method: 'GET', url: expect.stringMatching(/^\/transfer-bucket\/exports\/project\.tar\.gz/) });
    // Signed (SigV4) with the given key and region.
    expect(s3Requests[0].authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATESTTRANSFER\/\d{8}\/eu-west-1\/s3\/aws4_request/);
    const done = await until(
      () => importStatus(accepted.body.id),
      (s) => ['finished', 'failed'].includes(s.import_status),
      'the S3 import',
    );
    expect(done).toMatchObject({ import_status: 'finished', import_error: null });
    expect(await issueTitles(accepted.body.id)).toEqual(['From S3']);
    const [record] = await gw.dataSource.query(`SELECT row_to_json(s)::text AS json FROM project_import_states s WHERE project_id = $1`, [accepted.body.id]);
    expect(record.json).not.toContain(body.secret_access_key);
    expect(record.json).not.toContain(body.access_key_id);

    // A key the bucket does not have: 400, no project.
    const missing = await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import-s3', {
      ...root(),
      body: { ...body, path: 'missing-s3', file_key: 'exports/none.tar.gz' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: '400 Bad request - The file could not be fetched from S3' });
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${encodeURIComponent('root/missing-s3')}`, root())).status).toBe(404);
  });
});
