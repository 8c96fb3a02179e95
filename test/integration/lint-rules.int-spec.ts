import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../..');

interface Finding {
  file: string;
  rules: string[];
}

/**
 * Lints source texts as if they stood at the given paths of the tree, with the project's own
 * eslint.config.mjs, in one ESLint process (its typed rules load the program once).
 */
async function lint(cases: { file: string; code: string }[]): Promise<Finding[]> {
  const script = `
    import { ESLint } from 'eslint';
    const eslint = new ESLint({ cwd: process.argv[1] });
    const cases = JSON.parse(process.argv[2]);
    const out = [];
    for (const c of cases) {
      const [result] = await eslint.lintText(c.code, { filePath: c.file });
      out.push({ file: c.file, rules: result.messages.map((m) => m.ruleId ?? m.message) });
    }
    console.log(JSON.stringify(out));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, ROOT, JSON.stringify(cases)], {
    cwd: ROOT,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as Finding[];
}

/** The guards of `npm run lint` fire: the lib order, and promises that could end the process. */
describe('lint rules', () => {
  it('refuses an import of a lib of the same or a later level, allows the levels below, and flags floating and misused promises in production code', async () => {
    // Existing files of each lib, so that the typed rules find them in the TypeScript program.
    const messaging = 'libs/messaging/src/index.ts';
    const ci = 'libs/ci/src/index.ts';
    const approvals = 'libs/approvals/src/index.ts';
    const findings = await lint([
      { file: messaging, code: "import { CiModule } from '@app/ci';\nexport const x = CiModule;\n" },
      { file: ci, code: "import { ProjectTransferModule } from '@app/project-transfer';\nexport const x = ProjectTransferModule;\n" },
      { file: approvals, code: "import { CiModule } from '@app/ci';\nexport const x = CiModule;\n" },
      {
        file: ci,
        code: "import { RepositoryModule } from '@app/repository';\nimport { AppConfig } from '@app/config';\nexport const x = [RepositoryModule, AppConfig];\n",
      },
      { file: messaging, code: 'export async function f(): Promise<void> {}\nexport function g(): void {\n  f();\n}\n' },
      {
        file: messaging,
        code: "import { EventEmitter } from 'node:events';\nexport function h(e: EventEmitter): void {\n  e.on('x', async () => {});\n  [1].forEach(async () => {});\n}\n",
      },
      {
        file: messaging,
        code: 'export async function f(): Promise<void> {}\nexport async function g(): Promise<void> {\n  await f();\n  void f().catch(() => undefined);\n}\n',
      },
    ]);
    expect(findings.map((f) => f.rules)).toEqual([
      ['no-restricted-imports'],
      ['no-restricted-imports'],
      ['no-restricted-imports'],
      [],
      ['@typescript-eslint/no-floating-promises'],
      ['@typescript-eslint/no-misused-promises', '@typescript-eslint/no-misused-promises'],
      [],
    ]);
  });
});

describe('folder cycles check', () => {
  it('fails when two folders of a lib import each other and passes when imports go one way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folder-cycles-'));
    const write = (path: string, text: string) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    try {
      // libs/one: jobs -> core only (and the root composes both): no pair.
      write('one/src/index.ts', "export * from './jobs/job';\n");
      write('one/src/core/rule.ts', 'export const rule = 1;\n');
      write('one/src/jobs/job.ts', "import { rule } from '../core/rule';\nexport const job = rule;\n");
      const check = () =>
        promisify(execFile)(process.execPath, ['scripts/folder-cycles.mjs', '--check'], { cwd: ROOT, env: { ...process.env, LIBS_DIR: dir } });
      await expect(check()).resolves.toMatchObject({ stdout: '' });
      // core now imports jobs back: the pair is named and the check fails.
      write('one/src/core/rule.ts', "import { job } from '../jobs/job';\nexport const rule = 1;\nexport const again = () => job;\n");
      await expect(check()).rejects.toMatchObject({ code: 1, stdout: expect.stringContaining('core <-> jobs') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
