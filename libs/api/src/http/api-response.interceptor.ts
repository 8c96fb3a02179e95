import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { API_PREFIX } from './api-prefix';
import { JSON_CONTENT_TYPE } from './json-content-type';

const isApiRequest = (url: string): boolean => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);

/**
 * Response conventions of `/api/v4`:
 * - a handler that returns nothing answers 204 without a body (and so without a JSON
 *   content type), unless it declares its status with `@HttpCode()` (e.g. 202);
 * - a string result is sent as JSON (`"text"`), unless the handler set its own
 *   Content-Type (raw file contents, job logs).
 * Objects and arrays are serialized by Fastify; every JSON answer is `application/json` exactly
 * (`json-content-type.ts`).
 */
@Injectable()
export class ApiResponseInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const url = request.raw?.url ?? request.url;
    if (!isApiRequest(url)) return next.handle();
    const declaresStatus = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) !== undefined;

    return next.handle().pipe(
      map((result: unknown) => {
        if (result === undefined) {
          if (!declaresStatus) reply.status(204);
          return result;
        }
        if (typeof result === 'string' && reply.getHeader('content-type') === undefined) {
          reply.type(JSON_CONTENT_TYPE);
          return JSON.stringify(result);
        }
        return result;
      }),
    );
  }
}
