export { VULNERABILITIES_ENTITIES } from './entities';
export { VulnerabilitiesModule } from './vulnerabilities.module';
