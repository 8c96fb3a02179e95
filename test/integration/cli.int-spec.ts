import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AUTHENTICATOR, Authenticator } from '@app/api';
import { AppConfig } from '@app/config';
import { createTestDatabase } from '@app/testing';
import { CliModule } from '../../apps/cli/src/cli.module';
import { createTokenCommand } from '../../apps/cli/src/create-token.command';

describe('cli create-token', () => {
  let db: { url: string; drop: () => Promise<void> };
  let app: INestApplicationContext;

  beforeAll(async () => {
    db = await createTestDatabase('cli');
    const config = AppConfig.fromEnvironment({ DATABASE_URL: db.url, INITIAL_ROOT_TOKEN: 'cli-test-root-token-0123456789', LOG_LEVEL: 'silent' });
    app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('prints a token that authenticates as the user with the requested scopes', async () => {
    const result = await createTokenCommand(app, ['--username', 'root', '--name', 'deploy', '--scopes', 'read_api,read_user']);
    expect(result.code).toBe(0);
    const principal = await app.get<Authenticator>(AUTHENTICATOR).authenticate({ privateToken: result.stdout }, { jobTokenAllowed: false, safeMethod: true });
    expect(principal?.user.username).toBe('root');
    expect(principal?.scopes).toEqual(['read_api', 'read_user']);
  });

  it('refuses unknown users and missing arguments', async () => {
    expect((await createTokenCommand(app, ['--username', 'nobody', '--name', 'x'])).code).toBe(1);
    expect((await createTokenCommand(app, ['--name', 'x'])).code).toBe(2);
    await expect(createTokenCommand(app, ['--username', 'root', '--name', 'x', '--scopes', 'everything'])).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
