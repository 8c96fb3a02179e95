import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createTestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { createGateway } from '../../../apps/gateway/src/bootstrap-gateway';

export interface TestGateway {
  app: NestFastifyApplication;
  baseUrl: string;
  rootToken: string;
  config: AppConfig;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * The real gateway on an ephemeral loopback port, with its own database (cloned from the
 * migrated template), Kafka topic prefix and Redis prefix, so e2e files run in parallel.
 */
export async function startTestGateway(label: string, env: Record<string, string> = {}): Promise<TestGateway> {
  const db = await createTestDatabase(label);
  const rootToken = `root-${randomBytes(16).toString('hex')}`;
  const prefix = `t${randomBytes(4).toString('hex')}`;
  // Repositories, traces and artifacts are keyed by project and job ids, which every test
  // database starts again from 1: each test gateway keeps its own data directory (unless the
  // test gives one), so that test files running side by side never share a file.
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-data-'));
  const repositoriesDir = join(dataDir, 'repositories');
  const base = AppConfig.fromEnvironment({
    DATABASE_URL: db.url,
    KAFKA_TOPIC_PREFIX: prefix,
    REDIS_PREFIX: prefix,
    INITIAL_ROOT_TOKEN: rootToken,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    REPOSITORIES_DIR: repositoriesDir,
    ...env,
  });
  const app = await createGateway(base);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  // Links and web_url are built from EXTERNAL_URL; point it at the ephemeral port.
  const config = env.EXTERNAL_URL ? base : base.with({ http: { externalUrl: baseUrl } });
  Object.assign(app.get(AppConfig), { http: config.http });
  return {
    app,
    baseUrl,
    rootToken,
    config,
    dataSource: app.get(DataSource),
    close: async () => {
      await app.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Small HTTP helper over fetch: JSON in, JSON (or text) out. */
export async function api<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; headers?: Record<string, string>; body?: unknown; form?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['PRIVATE-TOKEN'] = options.token;
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * Creates a user (as root) with a personal access token. `attributes` override the user's
 * defaults (`name`, `email`, `password`...) or add others (`admin`, `private_profile`...).
 */
export async function createUserWithToken(
  gw: TestGateway,
  username: string,
  options: { scopes?: string[]; attributes?: Record<string, unknown> } = {},
): Promise<{ id: number; username: string; token: string }> {
  const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
    token: gw.rootToken,
    body: { username, name: `${username} name`, email: `${username}@example.com`, password: 'secret-password-1', ...options.attributes },
  });
  if (user.status !== 201) throw new Error(`user not created: ${user.text}`);
  const pat = await api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/personal_access_tokens`, {
    token: gw.rootToken,
    body: { name: 'e2e', scopes: options.scopes ?? ['api'] },
  });
  if (pat.status !== 201) throw new Error(`token not created: ${pat.text}`);
  return { id: user.body.id, username, token: pat.body.token };
}

export async function addProjectMember(gw: TestGateway, projectId: number, userId: number, accessLevel: number): Promise<void> {
  const res = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/members`, {
    token: gw.rootToken,
    body: { user_id: userId, access_level: accessLevel },
  });
  if (res.status !== 201) throw new Error(`member not added: ${res.text}`);
}
