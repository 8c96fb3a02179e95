import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { JSON_CONTENT_TYPE } from '@app/api';

/**
 * A refusal whose body is GitLab's exact `{message: <text>}` with its own status (405 `Cannot
 * remove HEAD branch`, 406 `Branch cannot be merged`, 409 SHA mismatch...), which the generic
 * error codes would reword. Rendered by `RepositoryErrorFilter` on this library's controllers.
 */
export class RepositoryError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RepositoryError';
  }
}

@Catch(RepositoryError)
export class RepositoryErrorFilter implements ExceptionFilter<RepositoryError> {
  catch(error: RepositoryError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply
      .status(error.status)
      .header('Content-Type', JSON_CONTENT_TYPE)
      .send(JSON.stringify({ message: error.message }));
  }
}
