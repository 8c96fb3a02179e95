import { ProjectLanguagesEntity } from './project-languages.entity';

export * from './project-languages.entity';

export const REPOSITORY_ENTITIES = [ProjectLanguagesEntity];
