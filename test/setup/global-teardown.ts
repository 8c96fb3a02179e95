import 'reflect-metadata';
import { dropTemplateDatabase } from '@app/testing';

export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_TEMPLATE_DATABASE) await dropTemplateDatabase(process.env.TEST_TEMPLATE_DATABASE);
}
