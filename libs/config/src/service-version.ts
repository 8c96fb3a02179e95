import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ServiceVersion {
  /** `version` of the project's package.json. */
  version: string;
  /** Short commit id of the checkout the service runs from, `unknown` outside a git checkout. */
  revision: string;
}

let cached: ServiceVersion | undefined;

/** This service's own version and revision (read once): `GET /version`, `/metadata`, the OpenAPI document. */
export function serviceVersion(): ServiceVersion {
  if (cached) return cached;
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  // The sources run from libs/config/src, the build from dist/libs/config/src: the first package.json up is the project's.
  const manifest = join(dir, 'package.json');
  const version = existsSync(manifest) ? String((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '0.0.0') : '0.0.0';
  let revision = 'unknown';
  try {
    revision =
      execFileSync('git', ['rev-parse', '--short=11', 'HEAD'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }).trim() ||
      revision;
  } catch {
    // Not a checkout (an installed build): the revision is unknown.
  }
  cached = { version, revision };
  return cached;
}
