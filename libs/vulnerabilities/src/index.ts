// libs/vulnerabilities: folders import only the folders below them, from the top down:
//   ingestion/ -> use-cases/ -> core/ (events, VulnerabilitiesRepository) -> dto/, entities/, report/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs vulnerabilities`.
export { VULNERABILITIES_ENTITIES } from './entities';
export { VulnerabilitiesModule } from './vulnerabilities.module';
