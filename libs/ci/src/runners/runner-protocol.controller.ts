import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res, StreamableFile, UseInterceptors } from '@nestjs/common';
import { AcceptsContentTypes, Auth, intParam, LastModified, SkipAuth, StreamsMultipart } from '@app/api';
import { AppConfig } from '@app/config';
import { plainToInstance } from 'class-transformer';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CiJobEntity } from '../entities/ci-job.entity';
import { jobTokenOf } from '../jobs/job-token-credentials';
import { JobsRepository } from '../jobs/jobs.repository';
import { AppendTraceUseCase } from './append-trace.use-case';
import { ListAllowedAgentsUseCase } from './list-allowed-agents.use-case';
import { JobLongPoll } from './job-long-poll';
import { UpdateJobUseCase } from './update-job.use-case';
import { UploadArtifactUseCase } from './upload-artifact.use-case';
import { ArrayBodyAsEmptyInterceptor } from './runner-body.interceptor';
import { RequestJobDto, RunnerTokenDto, UpdateJobDto, UploadArtifactQueryDto } from './runner-protocol.dto';
import { ObjectStorage } from '../storage/object-storage';
import { RunnersRepository } from './runners.repository';

/** How often the runner should send trace updates (seconds), GitLab's default. */
const TRACE_UPDATE_INTERVAL = '3';

type Reply = FastifyReply;

const forbidden = (reply: Reply, message = '403 Forbidden'): Reply => reply.status(403).send({ message });

/** The runner token of `DELETE /runners`: the body's `token`, else the query's. */
const unregisterToken = (body: RunnerTokenDto | undefined, query: RunnerTokenDto | undefined): string => body?.token ?? query?.token ?? '';

/**
 * The same for the `Last-Modified` check, which runs before the validation pipe: the raw body and
 * query read with the DTO's transforms.
 */
const rawUnregisterToken = (request: { body?: unknown; query?: unknown }): string =>
  unregisterToken(plainToInstance(RunnerTokenDto, tokenHolder(request.body)), plainToInstance(RunnerTokenDto, tokenHolder(request.query)));
const tokenHolder = (value: unknown): { token?: unknown } =>
  value && typeof value === 'object' && !Array.isArray(value) ? { token: (value as Record<string, unknown>).token } : {};

/**
 * The API gitlab-runner talks to (`/runners`, `/jobs/…`), with the runner's own names for
 * parameters and headers. Runners authenticate with their `glrt-` token (`token`); a job's
 * calls use its job token, valid only while the job runs.
 */
@Controller()
@SkipAuth()
@UseInterceptors(ArrayBodyAsEmptyInterceptor)
export class RunnerProtocolController {
  constructor(
    private readonly config: AppConfig,
    private readonly runners: RunnersRepository,
    private readonly jobs: JobsRepository,
    private readonly longPoll: JobLongPoll,
    private readonly updateJob: UpdateJobUseCase,
    private readonly appendTrace: AppendTraceUseCase,
    private readonly uploadArtifact: UploadArtifactUseCase,
    private readonly listAllowedAgents: ListAllowedAgentsUseCase,
    private readonly storage: ObjectStorage,
  ) {}

  /** `gitlab-runner register --token glrt-…` and `verify`: 200 with the runner's id and token. */
  @Post('runners/verify')
  @HttpCode(200)
  async verify(@Body() body: RunnerTokenDto, @Res({ passthrough: true }) reply: Reply): Promise<unknown> {
    const token = body.token ?? '';
    const runner = await this.runners.findByToken(token);
    if (!runner) return forbidden(reply);
    return { id: runner.id, token, token_expires_at: null };
  }

  @Delete('runners')
  @LastModified(
    async (request, get) => (await get(RunnersRepository).findByToken(rawUnregisterToken(request as { body?: unknown; query?: unknown })))?.updatedAt,
  )
  async unregister(@Body() body: RunnerTokenDto, @Query() query: RunnerTokenDto, @Res() reply: Reply): Promise<void> {
    const runner = await this.runners.findByToken(unregisterToken(body, query));
    if (!runner) {
      forbidden(reply);
      return;
    }
    await this.runners.delete(runner.id);
    reply.status(204).send();
  }

  /** The long poll (`JobLongPoll`): 201 with a job, or 204 with `X-GitLab-Last-Update` once none came within the wait. */
  @Post('jobs/request')
  async request(@Body() body: RequestJobDto, @Req() req: FastifyRequest, @Res() reply: Reply): Promise<void> {
    const runner = await this.runners.findForPolling(body.token ?? '');
    if (!runner) {
      forbidden(reply);
      return;
    }
    await this.runners.touch(runner, body.info ?? null, req.ip ?? null);
    const aborted = new AbortController();
    req.raw.once('close', () => aborted.abort());
    const outcome = await this.longPoll.poll(runner, body.last_update, aborted.signal);
    if (outcome.result === 'job') reply.status(201).header('content-type', 'application/json').send(outcome.payload);
    else reply.header('X-GitLab-Last-Update', outcome.lastUpdate).status(204).send();
  }

  @Put('jobs/:id')
  async update(@Param('id') rawId: string, @Body() body: UpdateJobDto, @Req() req: FastifyRequest, @Res() reply: Reply): Promise<void> {
    const id = intParam('id', rawId, 'Job');
    const outcome = await this.updateJob.execute({
      jobId: id,
      token: jobTokenOf(req, { bodyToken: body.token }) ?? '',
      state: body.state,
      failureReason: body.failure_reason,
      exitCode: body.exit_code,
    });
    switch (outcome.result) {
      case 'invalid-state':
        reply.status(400).send({ error: 'state does not have a valid value' });
        return;
      case 'not-found':
        forbidden(reply);
        return;
      case 'job-not-running':
        reply.header('Job-Status', outcome.job.status).header('X-GitLab-Trace-Update-Interval', TRACE_UPDATE_INTERVAL);
        forbidden(reply, '403 Forbidden  - Job is not running');
        return;
      case 'accepted':
        reply.header('Job-Status', outcome.job.status).header('X-GitLab-Trace-Update-Interval', TRACE_UPDATE_INTERVAL);
        reply.status(200).header('content-type', 'text/plain').send('200');
        return;
    }
  }

  @Patch('jobs/:id/trace')
  @AcceptsContentTypes('text/plain', 'application/octet-stream', '*')
  async trace(@Param('id') rawId: string, @Req() req: FastifyRequest, @Res() reply: Reply): Promise<void> {
    const job = await this.jobFor(rawId, req, reply);
    if (!job) return;
    const body = Buffer.isBuffer(req.body) ? req.body : typeof req.body === 'string' ? Buffer.from(req.body) : Buffer.alloc(0);
    const header = req.headers['content-range'];
    const outcome = await this.appendTrace.execute(job, typeof header === 'string' ? header : undefined, body);
    switch (outcome.result) {
      case 'missing-range':
        reply.status(400).send({ message: '400 Missing header Content-Range' });
        return;
      case 'job-not-running':
        reply.header('Job-Status', outcome.job.status);
        forbidden(reply);
        return;
      case 'range-mismatch':
        reply.status(416).header('Range', `0-${outcome.size}`).send({ message: '416 Range Not Satisfiable' });
        return;
      case 'appended':
        reply
          .status(202)
          .header('Job-Status', outcome.job.status)
          .header('Range', `0-${outcome.size}`)
          .header('X-GitLab-Trace-Update-Interval', TRACE_UPDATE_INTERVAL)
          .send();
        return;
    }
  }

  /** Multipart upload of an artifact file (`file`, optional `metadata`), streamed to object storage. */
  @Post('jobs/:id/artifacts')
  @StreamsMultipart()
  async upload(@Param('id') rawId: string, @Query() query: UploadArtifactQueryDto, @Req() req: FastifyRequest, @Res() reply: Reply): Promise<void> {
    const job = await this.jobFor(rawId, req, reply);
    if (!job) {
      req.raw.resume();
      return;
    }
    const outcome = await this.uploadArtifact.execute({
      job,
      headers: req.headers,
      body: req.raw,
      artifactType: query.artifact_type,
      artifactFormat: query.artifact_format,
      expireIn: query.expire_in,
    });
    switch (outcome.result) {
      case 'stored':
        reply.status(201).header('content-type', 'text/plain').send('201');
        return;
      case 'job-not-running':
        forbidden(reply);
        return;
      // A parameter Grape refuses is `{"error"}`; a failure of the upload service is `{"message"}`, as GitLab's.
      case 'invalid':
        reply.status(400).send({ error: outcome.message });
        return;
      case 'not-saved':
        reply.status(400).send({ message: outcome.message });
        return;
      case 'too-large':
        reply.header('connection', 'close').status(413).send({ message: '413 Request Entity Too Large' });
        return;
    }
  }

  /**
   * The archive of a job, for the runner of a job that depends on it: the token of the job itself,
   * or of a running job of the same project.
   */
  @Get('jobs/:id/artifacts')
  async download(
    @Param('id') rawId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<StreamableFile | Record<string, string>> {
    const id = intParam('id', rawId, 'Job');
    const token = jobTokenOf(req);
    const holder = token ? await this.jobs.findByToken(token) : null;
    const job = holder && holder.id === id ? holder : holder && holder.status === 'running' ? await this.jobs.findById(id) : null;
    if (!holder || !job || job.projectId !== holder.projectId) {
      reply.status(403);
      return { message: '403 Forbidden' };
    }
    const [archive] = await this.jobs.artifacts([job.id], 'archive');
    const object = archive && !job.erasedAt ? await this.storage.get(archive.storageKey) : null;
    if (!object) {
      reply.status(404);
      return { message: '404 Not found' };
    }
    return new StreamableFile(object.stream, {
      type: 'application/octet-stream',
      length: object.size,
      disposition: `attachment; filename="${archive.filename.replace(/["\\\r\n]/g, '_')}"`,
    });
  }

  /** `GET /job`: the job that owns the token (only while it runs). */
  @Get('job')
  async currentJob(@Req() req: FastifyRequest, @Res() reply: Reply): Promise<void> {
    const token = jobTokenOf(req);
    const job = token ? await this.jobs.findByToken(token) : null;
    if (!job || job.status !== 'running') {
      reply.status(401).send({ message: '401 Unauthorized' });
      return;
    }
    reply.status(200).send({
      id: job.id,
      name: job.name,
      stage: job.stage,
      status: job.status,
      ref: job.ref,
      tag: job.tag,
      pipeline: { id: job.pipelineId, project_id: job.projectId, ref: job.ref, sha: job.sha },
      web_url: `${this.config.http.externalUrl}/-/jobs/${job.id}`,
    });
  }

  /**
   * `GET /job/allowed_agents` (PREMIUM; 403 below): the agents the job of the token may use (none
   * exist here), with its job, pipeline, project and user; 401 once the job finished, as `GET /job`.
   */
  @Get('job/allowed_agents')
  @Auth({ tier: 'premium' })
  async allowedAgents(@Req() req: FastifyRequest, @Res() reply: Reply): Promise<void> {
    const view = await this.listAllowedAgents.execute(jobTokenOf(req) ?? '');
    if (!view) {
      reply.status(401).send({ message: '401 Unauthorized' });
      return;
    }
    reply.status(200).send(view);
  }

  /** The job of `:id` when the request carries its token and it runs; answers 403 itself otherwise. */
  private async jobFor(rawId: string, req: FastifyRequest, reply: Reply): Promise<CiJobEntity | null> {
    const id = intParam('id', rawId, 'Job');
    const token = jobTokenOf(req);
    const job = token ? await this.jobs.findByToken(token) : null;
    if (!job || job.id !== id) {
      forbidden(reply);
      return null;
    }
    return job;
  }
}
