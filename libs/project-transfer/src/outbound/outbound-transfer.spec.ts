import { ApplicationSettings, StaticSettingsReader } from '@app/settings';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutboundTransfer, OutboundTransferError, validateRemoteHeaders } from './outbound-transfer';

/** Remote ends that answer, then cut their answer short: the transfer fails, the process does not. */
describe(OutboundTransfer.name, () => {
  let server: Server;
  let dir: string;
  let url: string;
  const sut = new OutboundTransfer(
    new StaticSettingsReader(
      ApplicationSettings.defaults({ host: 'localhost', sessionExpireDelayMinutes: 10 }, { allow_local_requests_from_web_hooks_and_services: true }),
    ),
  );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbound-spec-'));
    server = createServer((req, res) => {
      req.resume();
      const status = req.url === '/error' ? 500 : 200;
      // Announces a long body, sends part of it, then resets the connection.
      res.writeHead(status, { 'content-type': 'application/gzip', 'content-length': '1000000' });
      res.write(Buffer.alloc(1000, 1), () => setImmediate(() => res.socket?.destroy()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await sut.onApplicationShutdown();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails an upload whose answer is cut short, and a download whose error answer or archive is cut short', async () => {
    const file = join(dir, 'archive.tar.gz');
    writeFileSync(file, Buffer.alloc(10_000, 2));
    await expect(sut.upload(`${url}/ok`, 'PUT', file, 10_000)).resolves.toBeUndefined();
    await expect(sut.download(`${url}/error`, join(dir, 'a.tar.gz'), 0)).rejects.toThrow(/HTTP 500/);
    await expect(sut.download(`${url}/ok`, join(dir, 'b.tar.gz'), 0)).rejects.toThrow();
    // The dropped bodies fail after the calls returned: give them the time to (not) crash.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
});

describe('outbound transfer rules', () => {
  it('checks the headers of a remote archive', () => {
    expect(validateRemoteHeaders({ 'content-type': 'application/gzip', 'content-length': '10' }, 0)).toBe(10);
    expect(() => validateRemoteHeaders({ 'content-type': 'text/html', 'content-length': '10' }, 0)).toThrow(/Content type 'text\/html' not allowed/);
    expect(() => validateRemoteHeaders({ 'content-type': 'application/gzip' }, 0)).toThrow(/content-length/);
    expect(() => validateRemoteHeaders({ 'content-type': 'application/gzip', 'content-length': 'abc' }, 0)).toThrow(/content-length/);
    expect(() => validateRemoteHeaders({ 'content-type': 'application/gzip', 'content-length': String(11 * 1024 ** 3) }, 0)).toThrow(/too big/);
    expect(() => validateRemoteHeaders({ 'content-type': 'application/gzip', 'content-length': '2000' }, 1000)).toThrow(/too big/);
  });

  it('refuses local addresses unless the settings allow them', async () => {
    const settings = (allow: boolean) =>
      new StaticSettingsReader(
        ApplicationSettings.defaults({ host: 'localhost', sessionExpireDelayMinutes: 10 }, { allow_local_requests_from_web_hooks_and_services: allow }),
      );
    const refusing = new OutboundTransfer(settings(false));
    refusing.resolver = async () => [{ address: '10.0.0.7', family: 4 }];
    await expect(refusing.check('http://internal.example.test/upload')).rejects.toThrow(OutboundTransferError);
    await expect(refusing.check('http://127.0.0.1:9/x')).rejects.toThrow(/localhost/);
    await expect(refusing.check('ftp://example.test/x')).rejects.toThrow(/schemes/);
    const publicHost = new OutboundTransfer(settings(false));
    publicHost.resolver = async () => [{ address: '93.184.216.34', family: 4 }];
    await expect(publicHost.check('https://files.example.test/a.tar.gz')).resolves.toMatchObject({ url: expect.any(URL) });
    await expect(new OutboundTransfer(settings(true)).check('http://127.0.0.1:9/x')).resolves.toBeDefined();
  });
});
