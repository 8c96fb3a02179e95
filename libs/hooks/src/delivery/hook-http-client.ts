import { Injectable } from '@nestjs/common';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** How long a delivery may take, connection to last byte. */
export const HOOK_TIMEOUT_MS = 10_000;
/** The body of a receiver's answer kept for diagnostics. */
export const MAX_RESPONSE_BYTES = 16 * 1024;
export const HOOK_USER_AGENT = 'Service-Hook/4';

export interface HookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  verifyTls: boolean;
  timeoutMs?: number;
}

export type HookResponse = { ok: true; status: number; body: string } | { ok: false; status: number | null; error: string };

/**
 * POSTs one JSON delivery to a hook. Redirects are not followed (a 3xx is a failure), the
 * whole exchange is bounded by the timeout, and TLS certificates are verified unless the hook
 * turned verification off. Never throws: the outcome is the answer.
 */
@Injectable()
export class HookHttpClient {
  post(req: HookRequest): Promise<HookResponse> {
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        resolve({ ok: false, status: null, error: 'invalid url' });
        return;
      }
      const timeoutMs = req.timeoutMs ?? HOOK_TIMEOUT_MS;
      const headers: Record<string, string> = { ...req.headers, 'Content-Length': String(Buffer.byteLength(req.body)) };
      if (url.username || url.password) {
        headers.Authorization = `Basic ${Buffer.from(`${safeDecode(url.username)}:${safeDecode(url.password)}`).toString('base64')}`;
      }
      const options = { method: 'POST', headers, signal: AbortSignal.timeout(timeoutMs) };
      const target = new URL(url);
      target.username = '';
      target.password = '';
      const onResponse = (res: IncomingMessage): void => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('error', (error) => resolve({ ok: false, status: res.statusCode ?? null, error: describe(error) }));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const body = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
          resolve(status >= 200 && status < 300 ? { ok: true, status, body } : { ok: false, status, error: `HTTP ${status}` });
        });
      };
      try {
        const outgoing =
          url.protocol === 'https:'
            ? httpsRequest(target, { ...options, rejectUnauthorized: req.verifyTls }, onResponse)
            : httpRequest(target, options, onResponse);
        outgoing.on('error', (error) => resolve({ ok: false, status: null, error: describe(error) }));
        outgoing.end(req.body);
      } catch (error) {
        // Refused before sending (e.g. a header value Node will not write).
        resolve({ ok: false, status: null, error: describe(error as Error) });
      }
    });
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function describe(error: Error): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'timed out';
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${code}: ${error.message}` : error.message;
}
