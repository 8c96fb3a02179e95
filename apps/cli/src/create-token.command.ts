import { INestApplicationContext } from '@nestjs/common';
import { parseArgs } from 'node:util';
import { CreateAccessTokenUseCase, UsersRepository } from '@app/identity';

export const CREATE_TOKEN_USAGE = `Usage:
  npm run cli -- create-token --username <name> --name <token name> [--scopes api,read_user] [--expires-at YYYY-MM-DD]

Prints the new personal access token once; only its digest is stored.`;

export type CommandResult = { code: number; stdout?: string; stderr?: string };

/** `create-token`: a personal access token for an existing user. */
export async function createTokenCommand(app: INestApplicationContext, args: string[]): Promise<CommandResult> {
  const { values } = parseArgs({
    args,
    options: { username: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string', default: 'api' }, 'expires-at': { type: 'string' } },
  });
  if (!values.username || !values.name) return { code: 2, stderr: CREATE_TOKEN_USAGE };
  const user = await app.get(UsersRepository).findByIdOrUsername(values.username);
  if (!user) return { code: 1, stderr: `user ${values.username} not found` };
  const { secret } = await app.get(CreateAccessTokenUseCase).execute({
    userId: user.id,
    name: values.name,
    scopes: values.scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    expiresAt: values['expires-at'],
    actorId: null,
  });
  return { code: 0, stdout: secret };
}
