import { OwnContentEncoding, SkipAuth } from '@app/api';
import { Controller, Get, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { spawnGit } from '../git/git-cli';
import { RepositoryStorage } from '../storage/repository-storage';
import { GIT_INFO_REFS_ROUTES, GIT_RECEIVE_PACK_ROUTES, GIT_UPLOAD_PACK_ROUTES, projectPathOfGitParams } from './git-http-routes';
import { GIT_REALM, GitAccess, GitAccessDenied, GitAccessService, GitService } from './git-access';
import { PushPolicy } from './push-policy';
import { ReceiveHooks } from './receive-hooks';

const SERVICES: readonly GitService[] = ['git-upload-pack', 'git-receive-pack'];

/** pkt-line framing of one line. */
const pktLine = (text: string): string => (text.length + 4).toString(16).padStart(4, '0') + text;

/**
 * Git smart HTTP at `EXTERNAL_URL/<namespace>/<project>(.git)/…` (outside /api/v4): the ref
 * advertisement (`info/refs?service=…`), `git-upload-pack` (clone, fetch) and
 * `git-receive-pack` (push), streamed to and from `git … --stateless-rpc`.
 */
@Controller()
export class GitHttpController {
  private readonly logger = new Logger(GitHttpController.name);

  constructor(
    private readonly access: GitAccessService,
    private readonly storage: RepositoryStorage,
    private readonly hooks: ReceiveHooks,
    private readonly policy: PushPolicy,
  ) {}

  @Get(GIT_INFO_REFS_ROUTES)
  @SkipAuth()
  async infoRefs(
    @Param() params: Record<string, string>,
    @Query('service') service: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (typeof service !== 'string' || !SERVICES.includes(service as GitService)) {
      return this.plain(reply, 403, 'Only the smart HTTP protocol is supported: use a recent git client.');
    }
    const granted = await this.authorize(params, service as GitService, request, reply);
    if (!granted) return;
    const repository = await this.storage.open(granted.project);
    if (granted.project.defaultBranch) await repository.setHeadBranch(granted.project.defaultBranch);
    const protocol = service === 'git-upload-pack' ? gitProtocolOf(request) : undefined;
    const child = spawnGit(
      [...serviceConfig(service as GitService), service.slice(4), '--stateless-rpc', '--advertise-refs', repository.path],
      protocol ? { GIT_PROTOCOL: protocol } : {},
      repository.path,
    );
    const raw = this.start(reply, 200, `application/x-${service}-advertisement`);
    // Protocol v2 starts with its own capability advertisement, without the service line.
    if (!protocol?.includes('version=2')) raw.write(pktLine(`# service=${service}\n`) + '0000');
    child.stdin.end();
    this.pipeOut(child, raw, service);
  }

  @Post(GIT_UPLOAD_PACK_ROUTES)
  @SkipAuth()
  @OwnContentEncoding()
  async uploadPack(@Param() params: Record<string, string>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const granted = await this.authorize(params, 'git-upload-pack', request, reply);
    if (!granted) return;
    const repository = await this.storage.open(granted.project);
    const protocol = gitProtocolOf(request);
    const child = spawnGit(
      [...serviceConfig('git-upload-pack'), 'upload-pack', '--stateless-rpc', repository.path],
      protocol ? { GIT_PROTOCOL: protocol } : {},
      repository.path,
    );
    this.pipeIn(request, child, reply);
    this.pipeOut(child, this.start(reply, 200, 'application/x-git-upload-pack-result'), 'git-upload-pack');
  }

  @Post(GIT_RECEIVE_PACK_ROUTES)
  @SkipAuth()
  @OwnContentEncoding()
  async receivePack(@Param() params: Record<string, string>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const granted = await this.authorize(params, 'git-receive-pack', request, reply);
    if (!granted) return;
    const repository = await this.storage.open(granted.project);
    const user = granted.principal!.user;
    const hook = this.hooks.register(
      this.policy.handlerFor({ project: granted.project, repository, user: { id: user.id, isAdmin: user.isAdmin }, accessLevel: granted.accessLevel }),
    );
    const child = spawnGit(
      [...hook.configArgs, ...serviceConfig('git-receive-pack'), 'receive-pack', '--stateless-rpc', repository.path],
      hook.env,
      repository.path,
    );
    child.on('close', hook.release);
    child.on('error', hook.release);
    this.pipeIn(request, child, reply);
    this.pipeOut(child, this.start(reply, 200, 'application/x-git-receive-pack-result'), 'git-receive-pack');
  }

  private async authorize(params: Record<string, string>, service: GitService, request: FastifyRequest, reply: FastifyReply): Promise<GitAccess | null> {
    try {
      return await this.access.authorize(projectPathOfGitParams(params), service, request.headers.authorization);
    } catch (error) {
      if (!(error instanceof GitAccessDenied)) throw error;
      if (error.status === 401) reply.header('WWW-Authenticate', `Basic realm="${GIT_REALM}"`);
      this.plain(reply, error.status, error.message);
      return null;
    }
  }

  private plain(reply: FastifyReply, status: number, message: string): void {
    void reply.status(status).header('Content-Type', 'text/plain; charset=utf-8').send(`${message}\n`);
  }

  /** Takes the response over from Fastify for streaming. */
  private start(reply: FastifyReply, status: number, contentType: string): ServerResponse {
    const headers = { ...reply.getHeaders() } as Record<string, string>;
    reply.hijack();
    reply.raw.writeHead(status, {
      ...headers,
      'Content-Type': contentType,
      'Cache-Control': 'no-cache, max-age=0, must-revalidate',
      Expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
      Pragma: 'no-cache',
    });
    return reply.raw;
  }

  /** Streams the request body (gunzipped when `Content-Encoding: gzip`) into git's standard input. */
  private pipeIn(request: FastifyRequest, child: ReturnType<typeof spawnGit>, reply: FastifyReply): void {
    const body = request.body instanceof Readable ? request.body : Readable.from(Buffer.isBuffer(request.body) ? [request.body] : []);
    const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
    const source = encoding === 'gzip' || encoding === 'x-gzip' ? body.pipe(createGunzip()) : body;
    const abort = (error: Error) => {
      this.logger.warn({ err: error }, 'git request body failed');
      child.kill('SIGTERM');
      if (!reply.raw.headersSent) this.plain(reply, 400, 'The request body could not be read.');
    };
    source.on('error', abort);
    body.on('error', abort);
    child.stdin.on('error', () => undefined);
    source.pipe(child.stdin);
  }

  private pipeOut(child: ReturnType<typeof spawnGit>, raw: ServerResponse, service: string): void {
    const errors: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => {
      if (errors.length < 16) errors.push(chunk);
    });
    child.stdout.pipe(raw);
    child.on('close', (code) => {
      if (code !== 0) this.logger.warn({ service, code, stderr: Buffer.concat(errors).toString('utf8').slice(0, 2000) }, 'git service exited with an error');
      if (!raw.writableEnded) raw.end();
    });
    child.on('error', (error) => {
      this.logger.error({ err: error, service }, 'git service did not start');
      raw.destroy(error);
    });
    // A client that goes away stops the service.
    raw.on('close', () => {
      if (child.exitCode === null) child.kill('SIGTERM');
    });
  }
}

/** Configuration of each service for this server (never read from the repository's own config files). */
function serviceConfig(service: GitService): string[] {
  return service === 'git-upload-pack'
    ? ['-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=false']
    : ['-c', 'receive.advertisePushOptions=false'];
}

/** The `Git-Protocol` header (protocol v2 negotiation), when well formed. */
function gitProtocolOf(request: FastifyRequest): string | undefined {
  const value = request.headers['git-protocol'];
  return typeof value === 'string' && /^[a-zA-Z0-9=:.,_-]{1,100}$/.test(value) ? value : undefined;
}
