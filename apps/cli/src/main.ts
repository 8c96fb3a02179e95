import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DomainError } from '@app/api';
import { writeEventDocs } from '@app/messaging';
import { installCrashHandlers } from '@app/observability';
import { CliModule } from './cli.module';
import { CREATE_TOKEN_USAGE, createTokenCommand } from './create-token.command';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'events-docs') {
    // docs/events.md (its event list) and docs/domain-event.schema.json, from the event catalogue.
    const changed = writeEventDocs(process.cwd());
    process.stdout.write(changed.length > 0 ? `updated ${changed.join(', ')}\n` : 'event docs up to date\n');
    return 0;
  }
  if (command !== 'create-token') {
    process.stderr.write(`${CREATE_TOKEN_USAGE}\nusage: cli events-docs (regenerates the event list of docs/events.md and docs/domain-event.schema.json)\n`);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(), { logger: ['error', 'warn'] });
  try {
    const result = await createTokenCommand(app, rest);
    if (result.stdout) process.stdout.write(`${result.stdout}\n`);
    if (result.stderr) process.stderr.write(`${result.stderr}\n`);
    return result.code;
  } finally {
    await app.close();
  }
}

// Standard output is the command's (a token): a crash is told on standard error.
installCrashHandlers({ level: 'info', fd: 2 });
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const details = error instanceof DomainError && error.details.validation ? ` ${JSON.stringify(error.details.validation)}` : '';
    process.stderr.write(`${(error as Error).message}${details}\n`);
    process.exit(1);
  },
);
