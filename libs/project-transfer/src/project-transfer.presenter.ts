import { nameWithNamespace, ProjectWithNamespace } from '@app/namespaces';
import type { ProjectExportEntity } from './entities/project-export.entity';
import type { ProjectImportFailureEntity } from './entities/project-import-failure.entity';
import type { ProjectImportStateEntity } from './entities/project-import-state.entity';
import { downloadable } from './use-cases/export.use-cases';

const identity = (project: ProjectWithNamespace) => ({
  id: project.id,
  description: project.description,
  name: project.name,
  name_with_namespace: nameWithNamespace(project, project.namespace),
  path: project.path,
  path_with_namespace: `${project.namespace.fullPath}/${project.path}`,
  created_at: project.createdAt.toISOString(),
});

/** The export status record; `_links` only once the archive can be downloaded (`finished`). */
export function presentExportStatus(project: ProjectWithNamespace, row: ProjectExportEntity | null, externalUrl: string): Record<string, unknown> {
  const fresh = downloadable(row);
  let status = row?.status ?? 'none';
  // An archive past its 24 hours is gone: nothing is queued, started or finished any more.
  if (status === 'finished' && !fresh) status = 'none';
  const view: Record<string, unknown> = { ...identity(project), export_status: status };
  if (status === 'finished') {
    const path = `${project.namespace.fullPath}/${project.path}`;
    view._links = {
      api_url: `${externalUrl}/api/v4/projects/${project.id}/export/download`,
      web_url: `${externalUrl}/${path}/download_export`,
    };
  }
  return view;
}

/** The import status record (with `import_type`, `correlation_id`, `failed_relations` and `import_error`). */
export function presentImportStatus(
  project: ProjectWithNamespace,
  state: ProjectImportStateEntity | null,
  failures: ProjectImportFailureEntity[],
): Record<string, unknown> {
  return {
    ...identity(project),
    import_status: state?.status ?? 'none',
    import_type: state?.importType ?? null,
    correlation_id: state?.correlationId ?? null,
    failed_relations: failures.map((f) => ({
      id: f.id,
      created_at: f.createdAt.toISOString(),
      exception_class: f.exceptionClass,
      exception_message: f.exceptionMessage,
      source: f.source,
      relation_name: f.relationName,
      line_number: f.lineNumber,
    })),
    import_error: state?.error ?? null,
  };
}
