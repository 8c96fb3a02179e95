import { Module } from '@nestjs/common';
import { CustomAttributeFilters } from './custom-attribute-filters';
import { CustomAttributesRepository } from './custom-attributes.repository';

/**
 * The read side of custom attributes: the `custom_attributes[key]=value` / `with_custom_attributes`
 * list filters of users (identity), groups and projects (namespaces), which import this module.
 * Needs the global DatabaseModule.
 */
@Module({
  providers: [CustomAttributesRepository, CustomAttributeFilters],
  exports: [CustomAttributesRepository, CustomAttributeFilters],
})
export class CustomAttributeFiltersModule {}
