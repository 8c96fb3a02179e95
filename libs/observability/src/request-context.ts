import { AsyncLocalStorage } from 'node:async_hooks';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';

export interface RequestContextStore {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContextStore>();

/** The id of the HTTP request being served (the `X-Request-Id`), if any. */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

/** Runs `fn` with a request context (workers and consumers carry the id of the request that caused the work). */
export const runWithRequestId = <T>(requestId: string, fn: () => T): T => storage.run({ requestId }, fn);

/**
 * Makes the request id available to everything a handler calls (use cases, the outbox),
 * so that Kafka headers and job data carry it.
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<{ id?: string }>();
    const requestId = request.id;
    if (!requestId) return next.handle();
    return new Observable((subscriber) => storage.run({ requestId }, () => next.handle().subscribe(subscriber)));
  }
}
