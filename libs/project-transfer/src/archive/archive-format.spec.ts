import { exportFileName, supportedVersion } from './archive-format';
import { safeEntryPath } from './tar-archive';
import { OutboundTransfer, OutboundTransferError, validateRemoteHeaders } from '../outbound/outbound-transfer';
import { StaticSettingsReader, ApplicationSettings } from '@app/settings';

describe('project transfer archive rules', () => {
  it('reads 0.2.x archives only', () => {
    expect(supportedVersion('0.2.4')).toBe(true);
    expect(supportedVersion('0.2.0\n')).toBe(true);
    expect(supportedVersion('1.0.0')).toBe(false);
    expect(supportedVersion('0.1.8')).toBe(false);
    expect(supportedVersion('garbage')).toBe(false);
  });

  it('names the download as GitLab does', () => {
    expect(exportFileName('group/sub/project', new Date('2026-03-04T05:06:07.089Z'))).toBe('2026-03-04_05-06-089_group_sub_project_export.tar.gz');
  });

  it('keeps tar entries inside the work directory', () => {
    expect(safeEntryPath('/w', 'tree/project.json')).toBe('/w/tree/project.json');
    expect(safeEntryPath('/w', './VERSION')).toBe('/w/VERSION');
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a\\..\\x', 'C:x', 'a\0b', '.', '']) expect(safeEntryPath('/w', bad)).toBeNull();
  });

  it('checks the headers of a remote archive', () => {
    expect(validateRemoteHeaders({ 'content-type': 'application/gzip', 'content-length': '10' }, 0)).toBe(10);
    expect(() => validateRemoteHeaders({ 'content-type': 'text/html', 'content-length': '10' }, 0)).toThrow(/Content type 'text\/html' not allowed/);
    expect(() => validateRemoteHeaders({ 'content-type': 'application/gzip' }, 0)).toThrow(/content-length/);
    expect(() => validateRemoteHeaders({ 'content-type': 'application/gzip', 'content-length': 'abc' }, 0)).toThrow(/content-length/);
    expect(() => validateRemoteHeaders({ 'content-type': 'application/gzip', 'content-length': String(11 * 1024 ** 3) }, 0)).toThrow(/too big/);
    expect(() => validateRemoteHeaders({ 'content-type': 'application/gzip', 'content-length': '2000' }, 1000)).toThrow(/too big/);
  });

  it('refuses local addresses unless the settings allow them', async () => {
    const settings = (allow: boolean) => new StaticSettingsReader(ApplicationSettings.defaults({ host: 'localhost', sessionExpireDelayMinutes: 10 }, { allow_local_requests_from_web_hooks_and_services: allow }));
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
