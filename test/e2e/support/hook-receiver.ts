import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, any>;
  at: number;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type ReceiverReply = (delivery: ReceivedDelivery, received: ReceivedDelivery[]) => ReceiverAnswer | Promise<ReceiverAnswer>;

/** A real HTTP(S) receiver on loopback that records every request and answers `reply` (default 200). */
export async function startHookReceiver(options: { reply?: ReceiverReply; tls?: { key: Buffer; cert: Buffer }; port?: number } = {}) {
  const received: ReceivedDelivery[] = [];
  let reply: ReceiverReply = options.reply ?? (() => ({ status: 200 }));
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, any> = {};
      try {
        json = JSON.parse(body);
      } catch {
        // not JSON
      }
      const delivery = { path: req.url ?? '', headers: req.headers, body, json, at: Date.now() };
      received.push(delivery);
      Promise.resolve(reply(delivery, received))
        .then((answer) => res.writeHead(answer.status, answer.headers).end(answer.body ?? 'ok'))
        .catch(() => res.writeHead(500).end('receiver error'));
    });
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, handler) : createServer({ keepAliveTimeout: 60_000 }, handler);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    setReply: (next: ReceiverReply) => {
      reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export type HookReceiver = Awaited<ReturnType<typeof startHookReceiver>>;

/** A self-signed certificate for 127.0.0.1 (openssl), valid one day: a TLS receiver that hooks cannot verify. */
export function loopbackCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'hook-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
