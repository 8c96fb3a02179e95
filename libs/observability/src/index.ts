// libs/observability: folders import only the folders below them, from the top down:
//   health/, logging/ -> metrics/ -> core/ (the Fastify instance, the request context)
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs observability`.
export { HealthModule } from './health/health.module';
export type { ReadinessReport } from './health/readiness';
export { installCrashHandlers } from './logging/crash-handlers';
export { LoggingModule } from './logging/logging.module';
export { REDACTED } from './logging/redact';
export { MetricsModule } from './metrics/metrics.module';
export { MetricsService } from './metrics/metrics.service';
export { startObservabilityServer } from './observability-server';
export type { ObservabilityServer } from './observability-server';
export { currentRequestId, runWithRequestId } from './core/request-context';
