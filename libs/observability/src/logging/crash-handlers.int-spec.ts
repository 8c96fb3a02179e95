import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { CRASH_EXIT_CODE, installCrashHandlers } from './crash-handlers';

const ROOT = resolve(__dirname, '../../../..');

/**
 * A small HTTP process, as the apps' entry points are: the crash handlers installed first, then
 * Fastify with the request context of `registerRequestLogging`. `GET /reject` leaves a rejected
 * promise behind, `GET /throw` throws from a timer, both in the request's asynchronous context
 * and after the answer. The TypeScript sources are compiled on the fly by SWC (as jest does).
 */
const CHILD = `
const { readFileSync } = require('node:fs');
const swc = require('@swc/core');
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
    filename, swcrc: false, module: { type: 'commonjs' },
    jsc: { target: 'es2023', parser: { syntax: 'typescript', decorators: true } },
  });
  module._compile(code, filename);
};
const src = ${JSON.stringify(resolve(ROOT, 'libs/observability/src'))};
const { installCrashHandlers } = require(src + '/logging/crash-handlers.ts');
const { registerRequestLogging } = require(src + '/logging/request-logging.ts');
const { createRootLogger } = require(src + '/logging/root-logger.ts');
installCrashHandlers({ level: 'info' });
const { fastify } = require('fastify');
const app = fastify({ requestIdHeader: 'x-request-id' });
registerRequestLogging(app, createRootLogger({ level: 'silent' }));
app.get('/reject', async () => {
  setTimeout(() => void Promise.reject(new Error('a promise nobody awaited')), 20);
  return { ok: true };
});
app.get('/throw', async () => {
  setTimeout(() => { throw new Error('thrown from a timer'); }, 20);
  return { ok: true };
});
app.listen({ port: 0, host: '127.0.0.1' }).then((address) => process.stderr.write('LISTENING ' + address + '\\n'));
`;

interface Crash {
  code: number | null;
  lines: Array<Record<string, any>>;
  answer: number;
}

/** Starts the child, requests `path` with `requestId`, and waits for the child to end. */
function crashThrough(path: string, requestId: string): Promise<Crash> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let answered: Promise<number> | undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child did not end: ${stderr}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /LISTENING (\S+)/.exec(stderr);
      if (listening && !answered) {
        answered = fetch(`${listening[1]}${path}`, { headers: { 'x-request-id': requestId } }).then(
          (res) => res.status,
          () => -1,
        );
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      const lines = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, any>);
      void (answered ?? Promise.resolve(0)).then((answer) => resolvePromise({ code, lines, answer }));
    });
  });
}

describe(installCrashHandlers.name, () => {
  it('logs an unhandled rejection at fatal with the request id of its context, then exits non-zero', async () => {
    const { code, lines, answer } = await crashThrough('/reject', 'req-crash-rejection');
    expect(answer).toBe(200);
    expect(code).toBe(CRASH_EXIT_CODE);
    expect(code).not.toBe(0);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'fatal',
        msg: 'unhandled rejection',
        reqId: 'req-crash-rejection',
        err: expect.objectContaining({ type: 'Error', message: 'a promise nobody awaited', stack: expect.any(String) }),
      }),
    ]);
  });

  it('logs an uncaught exception at fatal with the request id of its context, then exits non-zero', async () => {
    const { code, lines } = await crashThrough('/throw', 'req-crash-exception');
    expect(code).toBe(CRASH_EXIT_CODE);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'fatal',
        msg: 'uncaught exception',
        reqId: 'req-crash-exception',
        err: expect.objectContaining({ message: 'thrown from a timer' }),
      }),
    ]);
  });
});
