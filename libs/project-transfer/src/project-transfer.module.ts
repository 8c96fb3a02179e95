import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { BadgesModule } from '@app/badges';
import { CiModule } from '@app/ci';
import { IdentityModule } from '@app/identity';
import { IssuesModule } from '@app/issues';
import { NamespacesModule } from '@app/namespaces';
import { NotesModule } from '@app/notes';
import { ProtectedBranchesModule } from '@app/repository';
import { SnippetsModule } from '@app/snippets';
import { ProjectExporter } from './export/project-exporter';
import { ProjectImporter } from './import/project-importer';
import { OutboundTransfer } from './outbound/outbound-transfer';
import { S3ArchiveSource } from './outbound/s3-archive-source';
import { ProjectTransferController } from './project-transfer.controller';
import { PROJECT_TRANSFER } from './queues/project-transfer.jobs';
import { ProjectTransferProcessor, ProjectTransferRecovery } from './project-transfer.processor';
import { ProjectTransferRepository } from './repositories/project-transfer.repository';
import { RELATION_PROVIDERS } from './relations';
import { TransferFiles } from './files/transfer-files';
import { PruneExportsUseCase, RequestExportUseCase, RunExportUseCase } from './use-cases/export.use-cases';
import { ImportLimits, RequestImportUseCase, RunImportUseCase } from './use-cases/import.use-cases';

/**
 * Project export and import in GitLab's archive format, with the BullMQ worker that runs them.
 * Needs the global ConfigModule, DatabaseModule, MessagingModule, RedisModule, SettingsModule,
 * RepositoryModule and `QueueModule.forRoot()`.
 */
@Module({
  // The lib of each relation: its repository writes the imported records.
  imports: [
    BullModule.registerQueue({ name: PROJECT_TRANSFER.name }),
    IdentityModule,
    NamespacesModule,
    IssuesModule,
    NotesModule,
    ProtectedBranchesModule,
    BadgesModule,
    SnippetsModule,
    CiModule,
  ],
  controllers: [ProjectTransferController],
  providers: [
    ProjectTransferRepository,
    TransferFiles,
    ProjectExporter,
    ProjectImporter,
    ...RELATION_PROVIDERS,
    OutboundTransfer,
    S3ArchiveSource,
    ImportLimits,
    RequestExportUseCase,
    RunExportUseCase,
    PruneExportsUseCase,
    RequestImportUseCase,
    RunImportUseCase,
    ProjectTransferProcessor,
    ProjectTransferRecovery,
  ],
  exports: [ProjectTransferRepository, RunExportUseCase, RunImportUseCase, ProjectTransferRecovery, OutboundTransfer, S3ArchiveSource],
})
export class ProjectTransferModule {}
