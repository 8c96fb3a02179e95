import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';

@Global()
@Module({})
export class ConfigModule {
  /** Provides the validated `AppConfig`; pass one explicitly in tests. */
  static forRoot(config: AppConfig = AppConfig.fromEnvironment()): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
