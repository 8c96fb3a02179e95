// libs/project-transfer is built as one-way slices (docs/ci.md "Code layout"): a folder imports
// only the folders below it, and nothing in a folder imports the files directly in src/ (this
// index, the module, the controller, the presenter and the processor, which compose them):
//
//   use-cases/                                 export and import (the jobs' work and the routes' answers)
//   repositories/                              export and import states
//   export/  import/  outbound/                writing and reading archives; remote uploads and downloads
//   relations/                                 the relations carried in an archive
//   archive/ events/ queues/ files/ dto/ entities/   the archive format, the core
//
// Check: `node scripts/folder-cycles.mjs project-transfer`.
//
// Other libs, the apps and the tests use these names only.
export { PROJECT_TRANSFER_ENTITIES, ProjectExportEntity, ProjectImportStateEntity } from './entities';
export { S3ArchiveSource } from './outbound/s3-archive-source';
export { exportJobId, importJobId, PROJECT_TRANSFER } from './queues/project-transfer.jobs';
export { ProjectTransferModule } from './project-transfer.module';
export { ProjectTransferRecovery } from './project-transfer.processor';
export { TransferFiles } from './files/transfer-files';
