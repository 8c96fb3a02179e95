/**
 * Preloaded into the gateway by bench:notes (`node --require dist/bench/instrument.js`), never by
 * the apps: counts the SQL statements the process sends through `pg` (by text), and on SIGWINCH
 * writes the counts to BENCH_SQL_COUNTS (JSON `{ "<statement>": n }`). With BENCH_EXIT_ON_SIGHUP,
 * SIGHUP ends the process with `process.exit` so that `--cpu-prof` writes its profile (the
 * shutdown hooks end it by a signal, which writes none).
 */
import { writeFileSync } from 'node:fs';
import { Client } from 'pg';

const counts = new Map<string, number>();
const original = Client.prototype.query as (...args: unknown[]) => unknown;
Client.prototype.query = function countedQuery(this: Client, ...args: unknown[]): unknown {
  const first = args[0] as string | { text?: string } | undefined;
  const text = typeof first === 'string' ? first : (first?.text ?? '?');
  counts.set(text, (counts.get(text) ?? 0) + 1);
  return original.apply(this, args);
} as typeof Client.prototype.query;

const target = process.env.BENCH_SQL_COUNTS;
if (target) process.on('SIGWINCH', () => writeFileSync(target, JSON.stringify(Object.fromEntries(counts))));
if (process.env.BENCH_EXIT_ON_SIGHUP) process.on('SIGHUP', () => process.exit(0));
