import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id, NullableString } from './event-part';

const ExportData = Data({ project_id: Id, generation: Id, correlation_id: NullableString });
const ImportData = Data({ project_id: Id, import_type: Type.String(), correlation_id: NullableString });
const Counts = Type.Record(Type.String(), Type.Integer({ minimum: 0 }));

/**
 * Events of `libs/project-transfer`: the end of a project export or import (the status records'
 * `finished` and `failed`), written in the transaction that records the status. The records
 * imported by an import have no events of their own (GitLab records none either).
 */
export const PROJECT_TRANSFER_EVENT_PART = defineEvents({
  'project_export.finished': {
    description: 'A project export archive is ready to download (and was sent to `upload[url]` when one was given).',
    data: Data({ ...ExportData.properties, file_name: Type.String(), file_size: Type.Integer({ minimum: 0 }), uploaded: Type.Boolean(), counts: Counts }),
  },
  'project_export.failed': {
    description: 'A project export failed (`error`); an earlier archive, if any, stays downloadable.',
    data: Data({ ...ExportData.properties, error: Type.String() }),
  },
  'project_import.finished': {
    description: 'A project import finished: every relation it could take is visible at once (`counts`, `skipped_relations`, `failed_relations`: how many).',
    data: Data({
      ...ImportData.properties,
      counts: Counts,
      skipped_relations: Counts,
      failed_relations: Type.Integer({ minimum: 0 }),
      replaced_project_id: Type.Union([Id, Type.Null()]),
    }),
  },
  'project_import.failed': {
    description: 'A project import failed (`import_error`); nothing of it was imported.',
    data: Data({ ...ImportData.properties, import_error: Type.String() }),
  },
});
