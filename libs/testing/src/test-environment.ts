/**
 * The test infrastructure's own knobs, read from the environment in this one file (the lint's
 * only exception to "process.env only in libs/config": these are not settings of the service).
 */
export const testEnvironment = {
  /** Server that hosts the test databases (the machine's PostgreSQL unless TEST_DATABASE_SERVER says otherwise). */
  databaseServer: (): string => process.env.TEST_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432',
  /** The migrated template the test databases are cloned from (named per run by the global setup). */
  templateDatabase: (): string => process.env.TEST_TEMPLATE_DATABASE ?? 'service_api_test_template',
  /** The shared development broker (scripts/services.sh), unless TEST_KAFKA_BROKERS says otherwise. */
  kafkaBrokers: (): string[] => (process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
};
