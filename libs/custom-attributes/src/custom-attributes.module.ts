import { Module } from '@nestjs/common';
import { CustomAttributeFiltersModule } from './custom-attribute-filters.module';
import { CustomAttributesController } from './custom-attributes.controller';
import { DeleteCustomAttributeUseCase } from './delete-custom-attribute.use-case';
import { SetCustomAttributeUseCase } from './set-custom-attribute.use-case';

/**
 * Custom attributes of users, groups and projects: the admin API and its use cases (the list
 * filters are `CustomAttributeFiltersModule`). Below identity and namespaces, which use the
 * filters: groups and projects come resolved by the auth guard, users are found by the lib's own
 * repository. Needs the global ConfigModule, DatabaseModule and MessagingModule.
 */
@Module({
  imports: [CustomAttributeFiltersModule],
  controllers: [CustomAttributesController],
  providers: [SetCustomAttributeUseCase, DeleteCustomAttributeUseCase],
})
export class CustomAttributesModule {}
