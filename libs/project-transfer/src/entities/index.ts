import { ProjectExportEntity } from './project-export.entity';
import { ProjectImportFailureEntity } from './project-import-failure.entity';
import { ProjectImportStateEntity } from './project-import-state.entity';

export * from './project-export.entity';
export * from './project-import-failure.entity';
export * from './project-import-state.entity';

export const PROJECT_TRANSFER_ENTITIES = [ProjectExportEntity, ProjectImportStateEntity, ProjectImportFailureEntity];
