import {
  Auth,
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  ErrorCode,
  parseBoolean,
  getRequestId,
  Principal,
  ProjectAccess,
  ResourceAccess,
  StreamsMultipart,
} from '@app/api';
import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf, ProjectWithNamespace, toAccessUser } from '@app/namespaces';
import { FixedWindowRateLimiter } from '@app/queue';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createReadStream } from 'node:fs';
import { ExportProjectDto, isUploadMethod, RemoteImportDto, RemoteImportS3Dto } from './dto/project-transfer.dto';
import { MultipartError, readImportMultipart } from './import/multipart-import';
import { OutboundTransfer, OutboundTransferError } from './outbound/outbound-transfer';
import { S3ArchiveSource } from './outbound/s3-archive-source';
import { presentExportStatus, presentImportStatus } from './project-transfer.presenter';
import { ProjectTransferRepository } from './repositories/project-transfer.repository';
import { TransferFiles } from './files/transfer-files';
import { downloadable, RequestExportUseCase } from './use-cases/export.use-cases';
import { ImportLimits, RequestImportUseCase } from './use-cases/import.use-cases';

/** GitLab's default application rate limits of these endpoints (per user; the download per user and project), per minute. */
export const TRANSFER_RATE_LIMITS = { project_export: 6, project_download_export: 1, project_import: 6 } as const;
const WINDOW_SECONDS = 60;

/**
 * Project export and import in GitLab's archive format (`/projects/:id/export`,
 * `/projects/import`, `/projects/remote-import`, `/projects/remote-import-s3`, `/projects/:id/import`).
 * Exports need Maintainer; an import creates a project where the user may create one.
 */
@Controller()
export class ProjectTransferController {
  constructor(
    private readonly config: AppConfig,
    private readonly transfers: ProjectTransferRepository,
    private readonly requestExport: RequestExportUseCase,
    private readonly requestImport: RequestImportUseCase,
    private readonly files: TransferFiles,
    private readonly limits: ImportLimits,
    private readonly limiter: FixedWindowRateLimiter,
    private readonly outbound: OutboundTransfer,
    private readonly s3: S3ArchiveSource,
  ) {}

  @Post('projects/:id/export')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  @HttpCode(202)
  async export(
    @CurrentProject() access: ResourceAccess,
    @Body() dto: ExportProjectDto,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
  ): Promise<{ message: string }> {
    const project = projectOf(access);
    let upload: { url: string; method: 'PUT' | 'POST' } | undefined;
    if (dto.upload !== undefined) {
      if (typeof dto.upload.url !== 'string' || dto.upload.url === '') throw DomainError.missing('upload[url]');
      const method = dto.upload.http_method ?? 'PUT';
      if (!isUploadMethod(method)) throw DomainError.badRequest('upload[http_method] does not have a valid value');
      upload = { url: dto.upload.url, method };
    }
    await this.rateLimit(['project_export', principal.user.id], TRANSFER_RATE_LIMITS.project_export);
    await this.requestExport.execute({ project, actorId: principal.user.id, description: dto.description, upload, correlationId: getRequestId(req) ?? null });
    return { message: '202 Accepted' };
  }

  @Get('projects/:id/export')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async exportStatus(@CurrentProject() access: ResourceAccess): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    return presentExportStatus(project, await this.transfers.export(project.id), this.config.http.externalUrl);
  }

  @Get('projects/:id/export/download')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async download(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    const project = projectOf(access);
    const row = await this.transfers.export(project.id);
    if (!downloadable(row)) throw new DomainError(ErrorCode.NOT_FOUND, '404 Not found or has expired');
    await this.rateLimit(['project_download_export', principal.user.id, project.id], TRANSFER_RATE_LIMITS.project_download_export);
    const path = this.files.pathOf(row.fileKey);
    const stream = createReadStream(path);
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject)).catch(() => {
      throw new DomainError(ErrorCode.NOT_FOUND, '404 Not found or has expired');
    });
    await reply
      .header('content-type', 'application/gzip')
      .header('content-length', row.fileSize ?? undefined)
      .header('content-disposition', `attachment; filename="${row.fileName}"`)
      .send(stream);
  }

  @Post('projects/import')
  @Auth()
  @StreamsMultipart()
  @HttpCode(201)
  async import(@CurrentPrincipal() principal: Principal, @Req() req: FastifyRequest): Promise<Record<string, unknown>> {
    const contentType = String(req.headers['content-type'] ?? '');
    if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
      req.raw.resume();
      throw DomainError.missing('file');
    }
    await this.rateLimit(['project_import', principal.user.id], TRANSFER_RATE_LIMITS.project_import).catch((error: unknown) => {
      req.raw.resume();
      throw error;
    });
    const upload = await this.files.newDirectory('imports', `upload-${principal.user.id}`);
    try {
      const form = await readImportMultipart(req.headers, req.raw, upload.path, await this.limits.maxImportBytes());
      if (form.fileBytes === null) throw DomainError.missing('file');
      if (!form.fields.path) throw DomainError.missing('path');
      return await this.startImport(principal, req, {
        path: form.fields.path,
        namespace: form.fields.namespace || undefined,
        name: form.fields.name || undefined,
        overwrite: parseBoolean(form.fields.overwrite) === true,
        overrideParams: form.overrideParams,
        source: { fileKey: `${upload.key}/archive.tar.gz` },
      });
    } catch (error) {
      await this.files.remove(upload.key);
      if (error instanceof MultipartError) throw error.status === 413 ? DomainError.payloadTooLarge() : DomainError.badRequest(error.message);
      throw error;
    }
  }

  @Post('projects/remote-import')
  @Auth()
  @HttpCode(201)
  async remoteImport(@CurrentPrincipal() principal: Principal, @Body() dto: RemoteImportDto, @Req() req: FastifyRequest): Promise<Record<string, unknown>> {
    if (!this.config.projectTransfer.remoteImportEnabled) throw DomainError.routeNotFound();
    await this.rateLimit(['project_import', principal.user.id], TRANSFER_RATE_LIMITS.project_import);
    // GitLab validates `url` with `schemes: %w(https)`; plain http stays accepted here (see docs/project-transfer.md).
    if (!/^https?:\/\//i.test(dto.url)) throw DomainError.badRequest('File url is blocked: Only allowed schemes are https');
    try {
      await this.outbound.checkRemoteFile(dto.url, await this.limits.maxImportBytes());
    } catch (error) {
      if (error instanceof OutboundTransferError) throw DomainError.badRequest(error.message);
      throw error;
    }
    return this.startImport(principal, req, {
      path: dto.path,
      namespace: dto.namespace,
      name: dto.name,
      overwrite: dto.overwrite === true,
      overrideParams: dto.override_params ?? {},
      source: { url: dto.url },
    });
  }

  @Post('projects/remote-import-s3')
  @Auth()
  @HttpCode(201)
  async remoteImportS3(@CurrentPrincipal() principal: Principal, @Body() dto: RemoteImportS3Dto, @Req() req: FastifyRequest): Promise<Record<string, unknown>> {
    if (!this.config.projectTransfer.remoteImportS3Enabled) throw DomainError.routeNotFound();
    await this.rateLimit(['project_import', principal.user.id], TRANSFER_RATE_LIMITS.project_import);
    const upload = await this.files.newDirectory('imports', `s3-${principal.user.id}`);
    try {
      // The credentials are used for this one request and kept nowhere (not in the job, not in the record, not in logs).
      await this.s3.download(
        { region: dto.region, bucket: dto.bucket_name, key: dto.file_key, accessKeyId: dto.access_key_id, secretAccessKey: dto.secret_access_key },
        upload.path,
        await this.limits.maxImportBytes(),
      );
    } catch (error) {
      await this.files.remove(upload.key);
      throw DomainError.badRequest(error instanceof OutboundTransferError ? error.message : 'The file could not be fetched from S3');
    }
    return this.startImport(principal, req, {
      path: dto.path,
      namespace: dto.namespace,
      name: dto.name,
      overwrite: false,
      overrideParams: {},
      source: { fileKey: `${upload.key}/archive.tar.gz` },
    });
  }

  @Get('projects/:id/import')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async importStatus(@CurrentProject() access: ResourceAccess): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    return presentImportStatus(project, await this.transfers.importState(project.id), await this.transfers.failures(project.id));
  }

  private async startImport(
    principal: Principal,
    req: FastifyRequest,
    params: {
      path: string;
      namespace?: string;
      name?: string;
      overwrite: boolean;
      overrideParams: Record<string, unknown>;
      source: { fileKey: string } | { url: string };
    },
  ): Promise<Record<string, unknown>> {
    const project: ProjectWithNamespace = await this.requestImport.execute({
      actor: toAccessUser(principal)!,
      correlationId: getRequestId(req) ?? null,
      ...params,
    });
    return presentImportStatus(project, await this.transfers.importState(project.id), []);
  }

  private async rateLimit(subject: ReadonlyArray<string | number>, limit: number): Promise<void> {
    const verdict = await this.limiter.hit(['project-transfer', ...subject], limit, WINDOW_SECONDS).catch(() => null);
    if (verdict && !verdict.allowed) throw DomainError.rateLimited(verdict.retryAfterSeconds);
  }
}
