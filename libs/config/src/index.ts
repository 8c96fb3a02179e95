export { AppConfig, ConfigValidationError } from './app-config';
export type { KafkaConfig } from './app-config';
export { ConfigModule } from './config.module';
export type { LogLevel, ServiceTier } from './env.schema';
export { serviceVersion } from './service-version';
