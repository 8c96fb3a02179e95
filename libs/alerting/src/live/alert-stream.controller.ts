import { Controller, Get, Headers, Query, Req, Res } from '@nestjs/common';
import { CurrentProject, ProjectAccess, ResourceAccess } from '@app/api';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { projectContextOf } from '../core/project-context';
import { AlertLiveChannel, LiveEntry } from './alert-live.channel';
import { AlertLiveHub, LiveSignal } from './alert-live.hub';

/** A comment line every so often keeps proxies and load balancers from closing an idle stream. */
export const LIVE_HEARTBEAT_MS = 20_000;
/** What the browser waits before reconnecting (SSE `retry`). */
export const LIVE_RETRY_MS = 1_000;

/** The SSE frames of one entry, of a reset and of the opening `ready` (which carries the current id). */
export const sseEntry = (entry: LiveEntry): string => `id: ${entry.id}\nevent: alert\ndata: ${entry.json}\n\n`;
export const sseReset = (): string => 'event: reset\ndata: {}\n\n';
export const sseReady = (id: string): string => `id: ${id}\nevent: ready\ndata: {}\n\n`;

/**
 * `GET /projects/:id/alert_management/alerts/stream`: the project's alert changes as
 * Server-Sent Events (reporters and above, any credential; the console uses its session
 * cookie). Each `alert` event carries the change (type, iid, status, severity, event count)
 * with the entry id as SSE id; `Last-Event-ID` (sent by the browser on reconnection, or the
 * `last_event_id` parameter) replays what was missed, or sends `reset` when that is no longer
 * known (reload the list).
 */
@Controller()
export class AlertStreamController {
  constructor(
    private readonly hub: AlertLiveHub,
    private readonly channel: AlertLiveChannel,
  ) {}

  @Get('projects/:id/alert_management/alerts/stream')
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async stream(
    @CurrentProject() access: ResourceAccess,
    @Headers('last-event-id') lastEventHeader: string | undefined,
    @Query('last_event_id') lastEventQuery: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const project = projectContextOf(access);
    const lastEventId = (lastEventHeader || (typeof lastEventQuery === 'string' ? lastEventQuery : '')).trim();
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-request-id': String(request.id),
    });
    raw.write(`retry: ${LIVE_RETRY_MS}\n\n`);

    // Subscribe first and hold what arrives until the catch-up is written: nothing is missed,
    // and an entry both in the backlog and on the channel is written once (ids only grow).
    let lastWritten = lastEventId || '0-0';
    let held: LiveSignal[] | null = [];
    let ended = false;
    const write = (signal: LiveSignal): void => {
      if (ended) return;
      if (signal.kind === 'close') return end();
      if (signal.kind === 'reset') {
        raw.write(sseReset());
        return;
      }
      if (compareIds(signal.entry.id, lastWritten) <= 0) return;
      lastWritten = signal.entry.id;
      raw.write(sseEntry(signal.entry));
    };
    const heartbeat = setInterval(() => raw.write(': ping\n\n'), LIVE_HEARTBEAT_MS);
    let unsubscribe: (() => void) | null = null;
    const end = (): void => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe?.();
      raw.end();
    };
    raw.on('close', end);

    try {
      unsubscribe = await this.hub.subscribe(project.id, (signal) => (held ? held.push(signal) : write(signal)));
      if (ended) return unsubscribe();
      if (lastEventId) {
        const missed = await this.channel.since(project.id, lastEventId);
        if (missed === null) {
          raw.write(sseReset());
          lastWritten = await this.channel.latestId(project.id);
        } else for (const entry of missed) write({ kind: 'entry', entry });
      } else {
        lastWritten = await this.channel.latestId(project.id);
      }
      raw.write(sseReady(lastWritten));
      const pending = held;
      held = null;
      for (const signal of pending) write(signal);
    } catch {
      // Redis is away: the browser reconnects (and catches up) by itself.
      end();
    }
  }
}

/** Orders two Redis stream ids (`ms-seq`). */
export function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(BigInt);
  const [bm, bs] = b.split('-').map(BigInt);
  if (am !== bm) return am < bm ? -1 : 1;
  if (as !== bs) return (as ?? 0n) < (bs ?? 0n) ? -1 : 1;
  return 0;
}
