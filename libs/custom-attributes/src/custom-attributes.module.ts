import { Module } from '@nestjs/common';
import { CustomAttributesController } from './custom-attributes.controller';
import { DeleteCustomAttributeUseCase } from './delete-custom-attribute.use-case';
import { SetCustomAttributeUseCase } from './set-custom-attribute.use-case';

/**
 * Custom attributes of users, groups and projects: the admin API and its use cases. Above identity
 * and namespaces (it names their resources); the list filters stay in libs/settings, below both.
 * Needs the global ConfigModule, DatabaseModule, MessagingModule and SettingsModule.
 */
@Module({
  controllers: [CustomAttributesController],
  providers: [SetCustomAttributeUseCase, DeleteCustomAttributeUseCase],
})
export class CustomAttributesModule {}
