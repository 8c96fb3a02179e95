import 'reflect-metadata';
import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  Module,
  NotFoundException,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Req,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { AppConfig } from '@app/config';
import { assertUnmodifiedSince, configureHttpApp, createFastifyAdapter, DomainError, Embedded, Required } from '@app/api';

/* Fixture DTOs and controllers: real validation and filter, handlers that throw on purpose. */

class SettingsDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  title?: string;

  @IsOptional()
  @IsInt()
  @Max(5)
  level?: number;
}

class MemberDto {
  @Required()
  @IsString()
  username: string;
}

class CreateProjectDto {
  @Required()
  @IsString()
  @MaxLength(10)
  name: string;

  @IsOptional()
  @IsIn(['private', 'internal', 'public'])
  visibility?: string;

  @Embedded(() => SettingsDto)
  settings?: SettingsDto;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => MemberDto)
  members?: MemberDto[];
}

/** The resource changed at this instant (milliseconds included on purpose). */
const LAST_MODIFIED = new Date('2024-05-01T12:00:00.750Z');

@Controller('projects')
class ProjectsFixtureController {
  @Post()
  create(@Body() dto: CreateProjectDto): unknown {
    return { created: dto, isDto: dto instanceof CreateProjectDto };
  }

  @Delete(':id')
  remove(@Req() request: FastifyRequest): void {
    assertUnmodifiedSince(request, LAST_MODIFIED);
  }

  @Delete(':id/archive')
  @HttpCode(202)
  scheduleRemoval(): void {
    return undefined;
  }

  @Put(':id')
  update(@Param('id', ParseIntPipe) id: number): unknown {
    return { id };
  }
}

@Controller('failures')
class FailuresController {
  @Get('crash')
  crash(): never {
    throw new Error('connection to postgres://admin:hunter2@db failed');
  }

  @Get('rejected-promise')
  async rejected(): Promise<never> {
    await Promise.resolve();
    throw new TypeError('Cannot read properties of undefined (reading "secret")');
  }

  @Get('rate-limited')
  rateLimited(): never {
    throw DomainError.rateLimited(17);
  }

  @Get('unauthorized')
  unauthorized(): never {
    throw DomainError.unauthorized();
  }

  @Get('forbidden')
  forbidden(): never {
    throw DomainError.forbidden('Must be admin to use sudo');
  }

  @Get('scope')
  scope(): never {
    throw DomainError.insufficientScope('sudo');
  }

  @Get('not-found')
  notFound(): never {
    throw DomainError.notFound('User with ID or username ghost');
  }

  @Get('conflict')
  conflict(): never {
    throw DomainError.conflict('Branch already exists');
  }

  @Get('unprocessable')
  unprocessable(): never {
    throw DomainError.unprocessable('Cannot transition to the same state');
  }

  @Get('http-exceptions/:kind')
  httpException(@Param('kind') kind: string): never {
    if (kind === 'bad-request') throw new BadRequestException('weird input');
    if (kind === 'forbidden') throw new ForbiddenException();
    throw new NotFoundException();
  }
}

@Module({ controllers: [ProjectsFixtureController, FailuresController] })
class ErrorsFixtureModule {}

describe('API errors (ApiExceptionFilter + validation)', () => {
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    const config = AppConfig.fromEnvironment({ EXTERNAL_URL: 'https://gitlab.example.com' });
    app = await NestFactory.create<NestFastifyApplication>(ErrorsFixtureModule, createFastifyAdapter(config), { logger: false });
    configureHttpApp(app, config);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await app.close();
  });

  const call = (path: string, init: RequestInit = {}): Promise<Response> => fetch(`${base}${path}`, init);
  const postJson = (path: string, body: unknown): Promise<Response> =>
    call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  describe('validation (400)', () => {
    it('answers a missing required attribute with 400 "<attr>" not given', async () => {
      const res = await postJson('/api/v4/projects', { visibility: 'private' });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      await expect(res.json()).resolves.toEqual({ message: '400 (Bad request) "name" not given' });
    });

    it('treats null as missing, and reports a missing attribute before other failures', async () => {
      const res = await postJson('/api/v4/projects', { name: null, visibility: 'secret' });
      await expect(res.json()).resolves.toEqual({ message: '400 (Bad request) "name" not given' });
    });

    it('names a missing nested attribute in bracket notation', async () => {
      const res = await postJson('/api/v4/projects', { name: 'ok', members: [{ username: 'a' }, {}] });
      expect(res.status).toBe(400);
      await expect(res.json()).resolves.toEqual({ message: '400 (Bad request) "members[1][username]" not given' });
    });

    it('reports other failures per property, nested for embedded entities, with GitLab texts', async () => {
      const res = await postJson('/api/v4/projects', {
        name: 'a-very-long-name',
        visibility: 'secret',
        settings: { title: '', level: 9 },
      });
      expect(res.status).toBe(400);
      await expect(res.json()).resolves.toEqual({
        message: {
          name: ['is too long (maximum is 10 characters)'],
          visibility: ['does not have a valid value'],
          settings: {
            title: ["can't be blank"],
            level: ['must be less than or equal to 5'],
          },
        },
      });
    });

    it('says "is invalid" for a value of the wrong type', async () => {
      const res = await postJson('/api/v4/projects', { name: 42 });
      await expect(res.json()).resolves.toEqual({ message: { name: ['is invalid'] } });
    });

    it('strips unknown attributes and hands the handler a DTO instance', async () => {
      const res = await postJson('/api/v4/projects', { name: 'ok', admin: true });
      expect(res.status).toBe(201);
      await expect(res.json()).resolves.toEqual({ created: { name: 'ok' }, isDto: true });
    });

    it('takes an empty JSON body as no attributes', async () => {
      const res = await call('/api/v4/projects', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
      await expect(res.json()).resolves.toEqual({ message: '400 (Bad request) "name" not given' });
    });

    it('answers a failing Nest pipe with a spec 400 body', async () => {
      const res = await call('/api/v4/projects/abc', { method: 'PUT' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toMatch(/^400 Bad request - /);
    });
  });

  describe('If-Unmodified-Since (412)', () => {
    it('answers 412 when the resource changed after the given date', async () => {
      const res = await call('/api/v4/projects/1', {
        method: 'DELETE',
        headers: { 'if-unmodified-since': new Date('2024-05-01T11:59:59Z').toUTCString() },
      });
      expect(res.status).toBe(412);
      await expect(res.json()).resolves.toEqual({ message: '412 Precondition Failed' });
    });

    it('deletes (204, no body) when the resource is unchanged since the date, at second precision', async () => {
      const res = await call('/api/v4/projects/1', {
        method: 'DELETE',
        headers: { 'if-unmodified-since': 'Wed, 01 May 2024 12:00:00 GMT' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('content-type')).toBeNull();
      await expect(res.text()).resolves.toBe('');
    });

    it('ignores an absent or unparseable header', async () => {
      expect((await call('/api/v4/projects/1', { method: 'DELETE' })).status).toBe(204);
      expect((await call('/api/v4/projects/1', { method: 'DELETE', headers: { 'if-unmodified-since': 'yesterday-ish' } })).status).toBe(204);
    });

    it('keeps a status declared with @HttpCode for an empty result (202 accepted)', async () => {
      const res = await call('/api/v4/projects/1/archive', { method: 'DELETE' });
      expect(res.status).toBe(202);
      await expect(res.text()).resolves.toBe('');
    });
  });

  describe('status bodies', () => {
    it('answers 429 with Retry-After from the error', async () => {
      const res = await call('/api/v4/failures/rate-limited');
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('17');
      await expect(res.json()).resolves.toEqual({ message: 'Retry later' });
    });

    it('answers 401 with {"message":"401 Unauthorized"}', async () => {
      const res = await call('/api/v4/failures/unauthorized');
      expect(res.status).toBe(401);
      await expect(res.json()).resolves.toEqual({ message: '401 Unauthorized' });
    });

    it('answers 403 with the reason', async () => {
      const res = await call('/api/v4/failures/forbidden');
      expect(res.status).toBe(403);
      await expect(res.json()).resolves.toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    });

    it('answers an insufficient scope with the OAuth body', async () => {
      const res = await call('/api/v4/failures/scope');
      expect(res.status).toBe(403);
      await expect(res.json()).resolves.toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'sudo',
      });
    });

    it('answers a missing resource with 404 {"message":"404 <Resource> Not Found"}', async () => {
      const res = await call('/api/v4/failures/not-found');
      expect(res.status).toBe(404);
      await expect(res.json()).resolves.toEqual({ message: '404 User with ID or username ghost Not Found' });
    });

    it('answers 409 and 422 with their message', async () => {
      const conflict = await call('/api/v4/failures/conflict');
      expect(conflict.status).toBe(409);
      await expect(conflict.json()).resolves.toEqual({ message: 'Branch already exists' });
      const unprocessable = await call('/api/v4/failures/unprocessable');
      expect(unprocessable.status).toBe(422);
      await expect(unprocessable.json()).resolves.toEqual({ message: 'Cannot transition to the same state' });
    });

    it('maps Nest HttpExceptions to spec bodies', async () => {
      const bad = await call('/api/v4/failures/http-exceptions/bad-request');
      expect(bad.status).toBe(400);
      await expect(bad.json()).resolves.toEqual({ message: '400 Bad request - weird input' });
      const forbidden = await call('/api/v4/failures/http-exceptions/forbidden');
      expect(forbidden.status).toBe(403);
      await expect(forbidden.json()).resolves.toEqual({ message: '403 Forbidden' });
      const notFound = await call('/api/v4/failures/http-exceptions/other');
      expect(notFound.status).toBe(404);
      await expect(notFound.json()).resolves.toEqual({ message: '404 Not Found' });
    });
  });

  describe('unexpected failures (500)', () => {
    it.each(['crash', 'rejected-promise'])('answers %s with a generic body and the request id, leaking nothing', async (path) => {
      const res = await call(`/api/v4/failures/${path}`, { headers: { 'x-request-id': `corr-${path}` } });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ message: '500 Internal Server Error', correlation_id: `corr-${path}` });
      expect(text).not.toMatch(/hunter2|postgres|secret|TypeError|at /);
    });

    it('uses the generated request id as correlation id when none was sent', async () => {
      const res = await call('/api/v4/failures/crash');
      const body = (await res.json()) as { correlation_id: string };
      expect(body.correlation_id).toHaveLength(36);
      expect(res.headers.get('x-request-id')).toBe(body.correlation_id);
    });
  });
});
