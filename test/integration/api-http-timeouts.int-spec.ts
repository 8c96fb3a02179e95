import 'reflect-metadata';
import { connect, Socket } from 'node:net';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { configureHttpApp, createFastifyAdapter } from '@app/api';

@Controller('echo')
class EchoController {
  @Get()
  ping(): unknown {
    return { ok: true };
  }

  @Post()
  body(@Body() body: unknown): unknown {
    return { body };
  }
}

@Module({ controllers: [EchoController] })
class TimeoutFixtureModule {}

/** How long the test waits for the server to act on its (short) limits: generous, the limits are what is tested. */
const WAIT_MS = 15_000;

/**
 * Slow clients against the HTTP server with short configured limits, over raw sockets on
 * loopback: each connection must be closed by the server, not held open.
 */
describe('HTTP server timeouts', () => {
  let app: NestFastifyApplication;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const config = AppConfig.fromEnvironment({
      HTTP_HEADERS_TIMEOUT_MS: '600',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_IDLE_TIMEOUT_MS: '3000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
    });
    app = await NestFactory.create<NestFastifyApplication>(TimeoutFixtureModule, createFastifyAdapter(config), { logger: false });
    configureHttpApp(app, config);
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await app.close();
  });

  /** Opens a raw connection, writes `chunks`, and resolves with what the server sent once it closed the connection. */
  function holdOpen(...chunks: string[]): Promise<{ received: string; closedAfterMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      let received = '';
      const timer = setTimeout(() => reject(new Error(`the server kept the connection open for ${WAIT_MS} ms`)), WAIT_MS);
      socket.on('data', (data) => {
        received += data.toString('latin1');
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ received, closedAfterMs: Date.now() - started });
      });
      socket.on('connect', () => {
        for (const chunk of chunks) socket.write(chunk);
      });
    });
  }

  it('answers an ordinary request', async () => {
    const { received } = await holdOpen('GET /api/v4/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 200/);
  });

  it('closes a connection whose headers never end', async () => {
    const { received } = await holdOpen('GET /api/v4/echo HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(received).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('closes a connection that announces a body and sends one byte of it', async () => {
    const { received } = await holdOpen('POST /api/v4/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(received.slice(received.indexOf('\r\n\r\n') + 4)).toBe('{"message":"408 Request Timeout"}');
  });

  it('closes a connection that announces an endless chunked body', async () => {
    const { received } = await holdOpen(
      'POST /api/v4/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{',
    );
    expect(received).toMatch(/^HTTP\/1\.1 (408|400|413)/);
  });

  it('closes a kept-alive connection that sends no further request', async () => {
    const { received } = await holdOpen('GET /api/v4/echo HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toMatch(/keep-alive: timeout=0?\.?\d/i);
  });
});
