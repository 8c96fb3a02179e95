import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AlertIncidentsModule, AlertingModule, AlertLiveModule } from '@app/alerting';
import { ApprovalsModule } from '@app/approvals';
import { AuthGuard } from '@app/api';
import { BadgesModule } from '@app/badges';
import { CiModule } from '@app/ci';
import { AppConfig } from '@app/config';
import { EventsModule } from '@app/events';
import { HooksModule } from '@app/hooks';
import { CustomAttributesModule } from '@app/custom-attributes';
import { IdentityModule } from '@app/identity';
import { IssuesModule } from '@app/issues';
import { NamespacesModule } from '@app/namespaces';
import { NotesModule } from '@app/notes';
import { ProjectTransferModule } from '@app/project-transfer';
import { ProtectedBranchesModule, RepositoryModule } from '@app/repository';
import { SnippetsModule } from '@app/snippets';
import { QueueModule } from '@app/queue';
import { SettingsModule } from '@app/settings';
import { VulnerabilitiesModule } from '@app/vulnerabilities';
import { platformModules } from '../../platform-modules';

/** The HTTP surface: /api/v4, OAuth, health and metrics; also runs the outbox relay. */
@Module({})
export class GatewayModule {
  static forRoot(config: AppConfig = AppConfig.fromEnvironment(), options: { relay?: boolean } = {}): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        ...platformModules(config, { relay: options.relay ?? true }),
        IdentityModule,
        NamespacesModule,
        SettingsModule,
        CustomAttributesModule,
        AlertingModule,
        AlertLiveModule,
        AlertIncidentsModule,
        IssuesModule,
        EventsModule,
        ProtectedBranchesModule,
        BadgesModule,
        QueueModule.forRoot(),
        HooksModule.forRoot(config),
        RepositoryModule,
        SnippetsModule,
        NotesModule,
        CiModule,
        VulnerabilitiesModule,
        ProjectTransferModule,
        ApprovalsModule,
      ],
      providers: [{ provide: APP_GUARD, useClass: AuthGuard }],
    };
  }
}
