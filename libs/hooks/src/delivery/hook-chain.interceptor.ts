import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { runWithEnvelopeExtras } from '@app/messaging';
import { Observable } from 'rxjs';

/** Request headers of a hook delivery that a receiver echoes when it calls back into the API. */
export const HOOK_CHAIN_ID_HEADER = 'x-service-event-uuid';
export const HOOK_CHAIN_DEPTH_HEADER = 'x-service-event-chain-depth';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_DEPTH = 1000;

/** The chain a request belongs to, from its headers; null for a request not made by a hook receiver. */
export function chainFromHeaders(headers: Record<string, string | string[] | undefined>): { id: string; depth: number } | null {
  const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
  const id = first(headers[HOOK_CHAIN_ID_HEADER])?.trim();
  if (!id || !UUID.test(id)) return null;
  const rawDepth = first(headers[HOOK_CHAIN_DEPTH_HEADER])?.trim();
  const depth = rawDepth && /^\d{1,4}$/.test(rawDepth) ? Math.min(MAX_DEPTH, Math.max(1, Number(rawDepth))) : 1;
  return { id: id.toLowerCase(), depth };
}

/**
 * Loop protection of system hooks: a request carrying `X-Service-Event-UUID` (and
 * `X-Service-Event-Chain-Depth`), as every delivery does, writes its domain events with
 * `hook_chain: {id, depth}` so the dispatcher can cut the chain.
 */
@Injectable()
export class HookChainInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<{ headers?: Record<string, string | string[] | undefined> }>();
    const chain = request.headers ? chainFromHeaders(request.headers) : null;
    if (!chain) return next.handle();
    return new Observable((subscriber) => runWithEnvelopeExtras({ hook_chain: chain }, () => next.handle().subscribe(subscriber)));
  }
}
