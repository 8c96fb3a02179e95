import { Client } from 'pg';
import { SERVICE_APPLICATION_NAME } from './pg-connections';

/** Splits a postgres URL into the server URL (maintenance db) and the database name. */
export function parseDatabaseUrl(url: string): { database: string; maintenanceUrl: string } {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres';
  parsed.pathname = '/postgres';
  return { database, maintenanceUrl: parsed.toString() };
}

/**
 * A short-lived client of the maintenance database. A cut connection fails the statement in
 * flight; the `error` event it also emits is ignored here (unheard, it would end the process).
 */
function maintenanceClient(maintenanceUrl: string): Client {
  const client = new Client({ connectionString: maintenanceUrl, application_name: `${SERVICE_APPLICATION_NAME}-maintenance` });
  client.on('error', () => undefined);
  return client;
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Creates the database named in `url` when it does not exist yet (optionally from a template). */
export async function ensureDatabase(url: string, template?: string): Promise<boolean> {
  const { database, maintenanceUrl } = parseDatabaseUrl(url);
  const client = maintenanceClient(maintenanceUrl);
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(database)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`);
    } catch (error) {
      // Another process created it between the check and the create.
      if ((error as { code?: string }).code !== '42P04') throw error;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const { database, maintenanceUrl } = parseDatabaseUrl(url);
  const client = maintenanceClient(maintenanceUrl);
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
