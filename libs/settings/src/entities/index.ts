export * from './application-settings.entity';
export * from './custom-attribute.entity';

import { ApplicationSettingsEntity } from './application-settings.entity';
import { GroupCustomAttributeEntity, ProjectCustomAttributeEntity, UserCustomAttributeEntity } from './custom-attribute.entity';

/** This library's entities, listed in the data source's `ENTITIES`. */
export const SETTINGS_ENTITIES = [ApplicationSettingsEntity, UserCustomAttributeEntity, GroupCustomAttributeEntity, ProjectCustomAttributeEntity];
