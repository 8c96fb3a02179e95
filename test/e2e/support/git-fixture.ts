import { RepositoryStorage, ZERO_SHA } from '@app/repository';
import type { TestGateway } from './test-gateway';

const AUTHOR = { name: 'Fixture', email: 'fixture@example.com' };

/**
 * Test setup: writes branches straight into a project's repository (no push recorded, so no push
 * events appear). `base` gets a first commit with `README.md`; every other branch gets one more
 * commit on top of it adding `<branch>.txt`, so each merges cleanly into `base`. Returns branch → sha.
 */
export async function seedBranches(gw: TestGateway, projectId: number, base: string, others: string[] = []): Promise<Record<string, string>> {
  const repository = await gw.app.get(RepositoryStorage).open({ id: projectId, defaultBranch: base });
  const readme = { name: 'README.md', blob: await repository.writeBlob('# fixture\n') };
  const root = await repository.commitTree(await repository.writeTree([readme]), [], 'Initial commit\n', AUTHOR);
  await repository.updateRef(`refs/heads/${base}`, root, ZERO_SHA, 'fixture');
  const shas: Record<string, string> = { [base]: root };
  for (const branch of others) {
    const file = { name: `${branch.replace(/\//g, '-')}.txt`, blob: await repository.writeBlob(`${branch}\n`) };
    const tree = await repository.writeTree([readme, file].sort((a, b) => (a.name < b.name ? -1 : 1)));
    shas[branch] = await repository.commitTree(tree, [root], `Work on ${branch}\n`, AUTHOR);
    await repository.updateRef(`refs/heads/${branch}`, shas[branch], ZERO_SHA, 'fixture');
  }
  return shas;
}
