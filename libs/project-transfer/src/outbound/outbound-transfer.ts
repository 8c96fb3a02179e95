import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { checkOutbound, OutboundSettings, ResolvedAddress, Resolver, systemResolver } from '@app/hooks';
import { SettingsReader } from '@app/settings';
import { createReadStream, createWriteStream } from 'node:fs';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, Dispatcher, request } from 'undici';
import { byteLimit } from '../archive/tar-archive';

/** GitLab's largest remote import file (10 GiB). */
export const MAX_REMOTE_IMPORT_BYTES = 10 * 1024 * 1024 * 1024;
/** Media types a remote archive may be served as. */
export const REMOTE_IMPORT_CONTENT_TYPES = ['application/gzip', 'application/x-gzip'];
const TRANSFER_TIMEOUT_MS = 60 * 60 * 1000;
const HEADERS_TIMEOUT_MS = 30_000;

/** A refusal of the outbound rules or of the remote server's answer: a client error, with GitLab's wording. */
export class OutboundTransferError extends Error {
  override name = 'OutboundTransferError';
}

/**
 * Uploads export archives to `upload[url]` and fetches remote import archives, streamed from
 * and to disk, through the same outbound rules as hooks: local network addresses are refused
 * unless `allow_local_requests_from_web_hooks_and_services` (or the
 * `outbound_local_requests_whitelist`) allows them, and with DNS rebinding protection the
 * checked address is the one connected to. Redirects are not followed.
 */
@Injectable()
export class OutboundTransfer implements OnApplicationShutdown {
  /** Replaced by unit tests with a resolver that answers the address under test. */
  resolver: Resolver = systemResolver;
  private readonly agents = new Set<Agent>();

  constructor(private readonly settings: SettingsReader) {}

  async outboundSettings(): Promise<OutboundSettings> {
    const settings = await this.settings.get();
    return {
      allowLocal: settings.boolean('allow_local_requests_from_web_hooks_and_services'),
      whitelist: settings.strings('outbound_local_requests_whitelist'),
      dnsRebindingProtection: settings.boolean('dns_rebinding_protection_enabled'),
    };
  }

  /** The URL parsed and allowed, or an `OutboundTransferError` saying why not. */
  async check(raw: string): Promise<{ url: URL; pinned: ResolvedAddress | null }> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundTransferError('Invalid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundTransferError('Only allowed schemes are http, https');
    const decision = await checkOutbound(url, await this.outboundSettings(), this.resolver);
    if (!decision.allowed) throw new OutboundTransferError(decision.reason);
    return { url, pinned: decision.pinned };
  }

  /** Sends a file with `Content-Type: application/gzip` (`PUT` or `POST`); fails unless the answer is 2xx. */
  async upload(rawUrl: string, method: 'PUT' | 'POST', file: string, size: number): Promise<void> {
    const { url, pinned } = await this.check(rawUrl);
    const dispatcher = this.dispatcher(pinned);
    // undici reports the file's errors by failing the request; this listener only keeps an error
    // of a body undici never read (the connection failed first) from being an uncaught one.
    const body = createReadStream(file).on('error', () => undefined);
    try {
      const response = await request(url, {
        method,
        headers: { 'content-type': 'application/gzip', 'content-length': String(size) },
        body,
        dispatcher,
        headersTimeout: TRANSFER_TIMEOUT_MS,
        bodyTimeout: TRANSFER_TIMEOUT_MS,
      });
      discard(response.body);
      if (response.statusCode < 200 || response.statusCode >= 300) throw new OutboundTransferError(`The upload answered HTTP ${response.statusCode}`);
    } finally {
      body.destroy();
      await this.release(dispatcher);
    }
  }

  /**
   * Checks a remote archive with a HEAD request: a valid `Content-Length` of at most 10 GiB and
   * `maxBytes` (0: no setting limit), and `Content-Type: application/gzip`.
   */
  async checkRemoteFile(rawUrl: string, maxBytes: number): Promise<number> {
    const { url, pinned } = await this.check(rawUrl);
    const dispatcher = this.dispatcher(pinned);
    try {
      const response = await request(url, { method: 'HEAD', dispatcher, headersTimeout: HEADERS_TIMEOUT_MS, bodyTimeout: HEADERS_TIMEOUT_MS });
      discard(response.body);
      if (response.statusCode < 200 || response.statusCode >= 300) throw new OutboundTransferError(`The remote file answered HTTP ${response.statusCode}`);
      return validateRemoteHeaders(response.headers, maxBytes);
    } catch (error) {
      if (error instanceof OutboundTransferError) throw error;
      throw new OutboundTransferError(`The remote file could not be reached: ${(error as Error).message}`);
    } finally {
      await this.release(dispatcher);
    }
  }

  /** Streams a remote archive to `file`, checked again on the GET answer and bounded by its announced length. */
  async download(rawUrl: string, file: string, maxBytes: number): Promise<number> {
    const { url, pinned } = await this.check(rawUrl);
    const dispatcher = this.dispatcher(pinned);
    try {
      const response = await request(url, { method: 'GET', dispatcher, headersTimeout: HEADERS_TIMEOUT_MS, bodyTimeout: TRANSFER_TIMEOUT_MS });
      if (response.statusCode < 200 || response.statusCode >= 300) {
        discard(response.body);
        throw new OutboundTransferError(`The remote file answered HTTP ${response.statusCode}`);
      }
      let length: number;
      try {
        length = validateRemoteHeaders(response.headers, maxBytes);
      } catch (error) {
        response.body.destroy();
        throw error;
      }
      await pipeline(
        response.body,
        byteLimit(length, 'The remote file is longer than its Content-Length'),
        createWriteStream(file, { flags: 'wx', mode: 0o600 }),
      );
      return length;
    } finally {
      await this.release(dispatcher);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.agents].map((agent) => agent.close().catch(() => undefined)));
  }

  private dispatcher(pinned: ResolvedAddress | null): Agent {
    const lookup: LookupFunction | undefined = pinned
      ? (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all)
            (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
              { address: pinned.address, family: pinned.family },
            ]);
          else callback(null, pinned.address, pinned.family);
        }
      : undefined;
    const agent = new Agent({ connect: lookup ? { lookup } : {} });
    this.agents.add(agent);
    return agent;
  }

  private async release(dispatcher: Dispatcher): Promise<void> {
    this.agents.delete(dispatcher as Agent);
    await dispatcher.close().catch(() => undefined);
  }
}

/**
 * Reads and drops an answer's body. The remote end is not trusted: a body it cuts short fails
 * the stream, and that 'error' must have a listener (without one it would end the process).
 */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.resume();
}

/** The announced length of a remote archive, or why its headers are refused (GitLab's remote file validation). */
export function validateRemoteHeaders(headers: Record<string, string | string[] | undefined>, maxBytes: number): number {
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (!REMOTE_IMPORT_CONTENT_TYPES.includes(type))
    throw new OutboundTransferError(`Content type '${type}' not allowed. (Allowed: ${REMOTE_IMPORT_CONTENT_TYPES.join(', ')})`);
  const raw = String(headers['content-length'] ?? '');
  if (!/^\d{1,15}$/.test(raw) || Number(raw) === 0) throw new OutboundTransferError('Missing content-length header');
  const length = Number(raw);
  if (length > MAX_REMOTE_IMPORT_BYTES) throw new OutboundTransferError(`Content length is too big (should be at most 10 GiB)`);
  if (maxBytes > 0 && length > maxBytes) throw new OutboundTransferError(`Content length is too big (should be at most ${maxBytes} bytes)`);
  return length;
}
