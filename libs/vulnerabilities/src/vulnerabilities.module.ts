import { Module } from '@nestjs/common';
import { CiModule } from '@app/ci';
import { NamespacesModule } from '@app/namespaces';
import { SecurityReportsConsumer } from './ingestion/security-reports.consumer';
import { CreateVulnerabilityUseCase } from './use-cases/create-vulnerability.use-case';
import { IngestSecurityReportsUseCase } from './use-cases/ingest-security-reports.use-case';
import { TransitionVulnerabilityUseCase } from './use-cases/transition-vulnerability.use-case';
import { VulnerabilitiesController } from './vulnerabilities.controller';
import { VulnerabilitiesRepository } from './core/vulnerabilities.repository';

/**
 * Vulnerabilities (ULTIMATE): findings ingested from the security reports of default-branch
 * pipelines (`SecurityReportsConsumer`), vulnerabilities created from them and triaged.
 * Needs the global ConfigModule, DatabaseModule and MessagingModule; reads artifacts through
 * libs/ci's object storage.
 */
@Module({
  imports: [NamespacesModule, CiModule],
  controllers: [VulnerabilitiesController],
  providers: [VulnerabilitiesRepository, IngestSecurityReportsUseCase, CreateVulnerabilityUseCase, TransitionVulnerabilityUseCase, SecurityReportsConsumer],
  exports: [VulnerabilitiesRepository, IngestSecurityReportsUseCase],
})
export class VulnerabilitiesModule {}
