import { DynamicModule, Module } from '@nestjs/common';
import { AlertLifecycleModule } from '@app/alerting';
import { AppConfig } from '@app/config';
import { IdentityModule } from '@app/identity';
import { platformModules } from '../../platform-modules';

/**
 * The alert lifecycle off the request path, fed by the domain event stream (consumer group
 * `alert-engine.v1`): alert status changes recorded as state events, incidents opened for
 * new alerts and closed when the alert is resolved, with system notes. Runs an outbox relay too (the incidents it writes have events of their own; several
 * relays are safe), and serves health and metrics.
 */
@Module({})
export class AlertEngineModule {
  static forRoot(config: AppConfig = AppConfig.fromEnvironment(), options: { relay?: boolean } = {}): DynamicModule {
    return {
      module: AlertEngineModule,
      imports: [...platformModules(config, { relay: options.relay ?? true }), IdentityModule, AlertLifecycleModule],
    };
  }
}
