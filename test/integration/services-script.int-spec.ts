import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const REPO = resolve(__dirname, '../..');

/**
 * `scripts/services.sh up` in a copy of the repository layout with an empty `.cache/`, while
 * the shared broker answers (the test run needs it): nothing is downloaded and no broker started.
 */
describe('scripts/services.sh up with a broker that already answers', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'services-up-'));
    await mkdir(join(root, 'scripts'));
    await mkdir(join(root, 'infra/kafka'), { recursive: true });
    await mkdir(join(root, 'bin'));
    await copyFile(join(REPO, 'scripts/services.sh'), join(root, 'scripts/services.sh'));
    await copyFile(join(REPO, 'infra/kafka/pom.xml'), join(root, 'infra/kafka/pom.xml'));
    // A `mvn` (and `java`) that only records that it was called.
    for (const tool of ['mvn', 'java']) {
      await writeFile(join(root, 'bin', tool), `#!/usr/bin/env bash\necho "$0 $*" >> "${join(root, 'calls.log')}"\nexit 1\n`);
      await chmod(join(root, 'bin', tool), 0o755);
    }
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('leaves the broker alone and fetches no jars', async () => {
    const { stdout } = await execFileAsync('bash', [join(root, 'scripts/services.sh'), 'up'], {
      env: { ...process.env, PATH: `${join(root, 'bin')}:${process.env.PATH}`, JAVA_HOME: '' },
      timeout: 60_000,
    });
    expect(stdout).toContain('(not started by this script; left alone)');
    await expect(readdir(root)).resolves.not.toContain('calls.log');
    await expect(readdir(join(root, '.cache/kafka'))).resolves.not.toContain('libs');
  });
});
