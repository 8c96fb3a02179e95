import { PROJECT_JSON, RELATIONS_DIR, VERSION_FILE } from './archive-format';
import { jsonTooLargeMessage, MAX_LINE_BYTES } from './ndjson';
import type { EntryLimit } from './tar-archive';

/**
 * Limits of the archive's entries the import reads, applied while extracting (GitLab's
 * `MAX_JSON_DOCUMENT_SIZE` rule, with this service's 64 MiB): `tree/project.json` is read whole,
 * so it may not be larger; the NDJSON files are read line by line, so no line may be longer;
 * `VERSION` holds a version number.
 */
export function importEntryLimits(name: string): EntryLimit | null {
  if (name === PROJECT_JSON) return { maxBytes: MAX_LINE_BYTES, error: jsonTooLargeMessage(name, MAX_LINE_BYTES) };
  if (name.startsWith(`${RELATIONS_DIR}/`) && name.endsWith('.ndjson'))
    return { maxLineBytes: MAX_LINE_BYTES, error: jsonTooLargeMessage(name, MAX_LINE_BYTES) };
  if (name === VERSION_FILE) return { maxBytes: 1024, error: 'The archive has a VERSION file larger than 1 KB: it is not a GitLab project export' };
  return null;
}
