import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';

/**
 * gitlab-runner sends JSON objects; a JSON array body has always been read by the runner routes as
 * a body without parameters (a token that is not given answers 403, a job update without a state
 * is a heartbeat). The validation pipe refuses an array where a DTO is expected (400), so the
 * array is made an empty object before the pipe reads the body. Other bodies (a trace's bytes, an
 * upload's stream) are left alone.
 */
@Injectable()
export class ArrayBodyAsEmptyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<{ body?: unknown }>();
    if (Array.isArray(request.body)) request.body = {};
    return next.handle();
  }
}
