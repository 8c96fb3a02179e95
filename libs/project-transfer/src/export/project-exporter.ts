import { Inject, Injectable } from '@nestjs/common';
import { ProjectWithNamespace } from '@app/namespaces';
import { RepositoryStorage, runGit } from '@app/repository';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityManager } from 'typeorm';
import { BUNDLE_FILE, EXPORT_FORMAT_VERSION, PROJECT_JSON, RELATIONS_DIR, relationFile, VERSION_FILE } from '../archive/archive-format';
import { NdjsonWriter } from '../archive/ndjson';
import { projectAttributes } from '../relations/project-attributes';
import { TRANSFER_RELATIONS, type TransferRelation } from '../relations/transfer-relation';

export interface ExportedTree {
  /** Files of the archive, in the order they are written to it. */
  files: string[];
  counts: Record<string, number>;
}

/**
 * Writes a project's export tree into `dir`: `VERSION`, `tree/project.json`, one NDJSON file per
 * relation (each written by its `relations/*.relation.ts`, in `RELATIONS` order) and
 * `project.bundle`. Relations are read page by page (keyset on id) and written line by line;
 * the bundle is written by git to disk. The relations read through `manager`: the export job's
 * one read-only REPEATABLE READ transaction, so that the archive is one consistent snapshot.
 */
@Injectable()
export class ProjectExporter {
  constructor(
    private readonly storage: RepositoryStorage,
    @Inject(TRANSFER_RELATIONS) private readonly relations: TransferRelation[],
  ) {}

  async write(
    project: ProjectWithNamespace,
    dir: string,
    manager: EntityManager,
    options: { description: string | null; exporterIsAdmin: boolean },
  ): Promise<ExportedTree> {
    await mkdir(join(dir, RELATIONS_DIR), { recursive: true });
    await writeFile(join(dir, VERSION_FILE), EXPORT_FORMAT_VERSION);
    await writeFile(join(dir, PROJECT_JSON), JSON.stringify(projectAttributes(project, options.description)));
    const counts: Record<string, number> = {};
    const files = [VERSION_FILE, PROJECT_JSON];
    const ctx = { project, manager, exporterIsAdmin: options.exporterIsAdmin };
    for (const relation of this.relations) {
      const file = relationFile(relation.name);
      const writer = new NdjsonWriter(join(dir, file));
      try {
        await relation.export(ctx, writer);
      } finally {
        await writer.close();
      }
      counts[relation.name] = writer.count;
      files.push(file);
    }
    if (await this.writeBundle(project, join(dir, BUNDLE_FILE))) files.push(BUNDLE_FILE);
    return { files, counts };
  }

  /** `git bundle create --all` of the project's repository; false when it has no refs (GitLab then leaves the bundle out). */
  private async writeBundle(project: ProjectWithNamespace, file: string): Promise<boolean> {
    const repository = await this.storage.open(project);
    if (!(await repository.hasBranches())) {
      const tags = await runGit(['--git-dir', repository.path, 'for-each-ref', '--count=1', 'refs/tags']);
      if (tags.stdout.length === 0) return false;
    }
    await runGit(['--git-dir', repository.path, 'bundle', 'create', file, '--all']);
    return true;
  }
}
