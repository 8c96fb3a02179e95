import 'reflect-metadata';
import { prepareTemplateDatabase } from '@app/testing';

/**
 * Runs once per test run: migrates a template database, named for this run so that runs
 * on one machine never drop each other's template. Workers inherit its name. A run of the
 * unit tests alone needs no database.
 */
export default async function globalSetup(globalConfig: { selectProjects?: string[] }): Promise<void> {
  const selected = globalConfig.selectProjects ?? [];
  if (selected.length > 0 && selected.every((p) => p === 'unit')) return;
  process.env.TEST_TEMPLATE_DATABASE ??= `service_api_template_${process.pid}`;
  await prepareTemplateDatabase(process.env.TEST_TEMPLATE_DATABASE);
}
