// Data source for the TypeORM CLI (migration:generate / run / revert). Not imported by the apps.
import 'reflect-metadata';
import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import { ENTITIES } from '../../entities';

export default createDataSource(AppConfig.fromEnvironment(), ENTITIES);
