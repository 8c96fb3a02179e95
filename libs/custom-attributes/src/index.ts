export { CustomAttributeFilters, IsCustomAttributesFilter } from './custom-attribute-filters';
export { CustomAttributeFiltersModule } from './custom-attribute-filters.module';
export { CustomAttributesModule } from './custom-attributes.module';
export { CUSTOM_ATTRIBUTE_ENTITIES } from './entities';
