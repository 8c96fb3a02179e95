import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RefUpdate } from '../git/git-repository';

/** Environment of a hook: the quarantine of a push not yet accepted. */
export interface QuarantineEnvironment {
  GIT_OBJECT_DIRECTORY?: string;
  GIT_ALTERNATE_OBJECT_DIRECTORIES?: string;
  GIT_QUARANTINE_PATH?: string;
}

export interface HookDecision {
  ok: boolean;
  /** Shown to the pusher (`remote: ...`). */
  message?: string;
}

/** What one push does in its hooks: decide before refs move (pre-receive), record after (post-receive). */
export interface PushHandler {
  preReceive(updates: RefUpdate[], quarantine: QuarantineEnvironment): Promise<HookDecision>;
  postReceive(updates: RefUpdate[]): Promise<void>;
}

const TOKEN_VARIABLE = 'SERVICE_GIT_HOOK_TOKEN';
const SOCKET_VARIABLE = 'SERVICE_GIT_HOOK_SOCKET';

/**
 * The hook program git runs for `pre-receive` and `post-receive` (plain Node, no dependency):
 * it sends the ref updates and the quarantine variables to the gateway over a Unix socket,
 * prints the answer's message and exits with its verdict.
 */
const HOOK_SCRIPT = `'use strict';
const net = require('node:net');
const kind = process.argv[2];
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const fail = (text) => { process.stderr.write(text + '\\n'); process.exit(1); };
  const socket = net.createConnection(process.env.${SOCKET_VARIABLE} || '');
  const answer = [];
  socket.on('data', (c) => answer.push(c));
  socket.on('error', () => fail('The push could not be checked; try again later.'));
  socket.on('end', () => {
    let reply;
    try { reply = JSON.parse(Buffer.concat(answer).toString('utf8')); } catch (e) { return fail('The push could not be checked; try again later.'); }
    if (reply.message) process.stderr.write(reply.message + '\\n');
    process.exit(reply.ok ? 0 : 1);
  });
  socket.end(JSON.stringify({
    kind,
    token: process.env.${TOKEN_VARIABLE} || '',
    input: Buffer.concat(chunks).toString('utf8'),
    quarantine: {
      GIT_OBJECT_DIRECTORY: process.env.GIT_OBJECT_DIRECTORY,
      GIT_ALTERNATE_OBJECT_DIRECTORIES: process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES,
      GIT_QUARANTINE_PATH: process.env.GIT_QUARANTINE_PATH,
    },
  }));
});
`;

/** `<old> <new> <ref>` lines of a receive hook's standard input. */
export function parseHookInput(input: string): RefUpdate[] {
  return input
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter((parts) => parts.length === 3)
    .map(([before, after, ref]) => ({ before, after, ref }));
}

const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Branch protection is enforced inside `git receive-pack`, the way GitLab does it: receive-pack
 * runs with `core.hooksPath` pointing at this process's hook directory; its `pre-receive` hook
 * calls back (Unix socket, one-time token per push) while the pushed objects are still in
 * quarantine, so the force-push check (`merge-base --is-ancestor`) sees them and a refusal
 * changes nothing; `post-receive` reports the refs that did move, which are recorded as push
 * events before the client's `git push` returns.
 */
@Injectable()
export class ReceiveHooks implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ReceiveHooks.name);
  private readonly handlers = new Map<string, PushHandler>();
  private directory = '';
  private socketPath = '';
  private server: Server | undefined;

  async onModuleInit(): Promise<void> {
    this.directory = mkdtempSync(join(tmpdir(), 'svc-git-hooks-'));
    const script = join(this.directory, 'hook.js');
    writeFileSync(script, HOOK_SCRIPT);
    const node = process.execPath.replace(/'/g, `'\\''`);
    for (const kind of ['pre-receive', 'post-receive']) {
      const file = join(this.directory, kind);
      writeFileSync(file, `#!/bin/sh\nexec '${node}' '${script}' ${kind}\n`);
      chmodSync(file, 0o755);
    }
    this.socketPath = join(this.directory, 'hook.sock');
    this.server = createServer({ allowHalfOpen: true }, (socket) => this.serve(socket));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.socketPath, () => resolve());
    });
    chmodSync(this.socketPath, 0o600);
  }

  async onModuleDestroy(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    rmSync(this.directory, { recursive: true, force: true });
  }

  /** `-c` options and environment for a `git receive-pack` whose hooks go to `handler`; call `release` when it exits. */
  register(handler: PushHandler): { configArgs: string[]; env: Record<string, string>; release: () => void } {
    const token = randomBytes(24).toString('hex');
    this.handlers.set(token, handler);
    return {
      configArgs: ['-c', `core.hooksPath=${this.directory}`],
      env: { [TOKEN_VARIABLE]: token, [SOCKET_VARIABLE]: this.socketPath },
      release: () => this.handlers.delete(token),
    };
  }

  private serve(socket: Socket): void {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_MESSAGE_BYTES) socket.destroy();
      else chunks.push(chunk);
    });
    socket.on('end', () => {
      void this.answer(Buffer.concat(chunks).toString('utf8')).then((decision) => socket.end(JSON.stringify(decision)));
    });
  }

  private async answer(raw: string): Promise<HookDecision> {
    try {
      const request = JSON.parse(raw) as { kind?: string; token?: string; input?: string; quarantine?: QuarantineEnvironment };
      const handler = this.handlers.get(request.token ?? '');
      if (!handler) return { ok: false, message: 'This push is not authorized.' };
      const updates = parseHookInput(request.input ?? '');
      if (request.kind === 'pre-receive') return await handler.preReceive(updates, request.quarantine ?? {});
      if (request.kind === 'post-receive') {
        await handler.postReceive(updates);
        return { ok: true };
      }
      return { ok: false, message: 'Unknown hook.' };
    } catch (error) {
      this.logger.error({ err: error }, 'git hook failed');
      return { ok: false, message: 'The push could not be processed; try again later.' };
    }
  }
}
