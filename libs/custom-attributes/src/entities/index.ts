import { GroupCustomAttributeEntity, ProjectCustomAttributeEntity, UserCustomAttributeEntity } from './custom-attribute.entity';

export * from './custom-attribute.entity';

/** This library's entities, listed in the apps' `ENTITIES`. */
export const CUSTOM_ATTRIBUTE_ENTITIES = [UserCustomAttributeEntity, GroupCustomAttributeEntity, ProjectCustomAttributeEntity];
