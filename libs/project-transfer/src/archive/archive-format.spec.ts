import { exportFileName, supportedVersion } from './archive-format';
import { safeEntryPath } from './tar-archive';

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
});
