import { Module } from '@nestjs/common';
import { HookHttpClient } from './delivery/hook-http-client';
import { HookTokenCipher } from './hook-token-cipher';
import { SystemHooksController } from './system-hooks.controller';
import { SystemHooksRepository } from './system-hooks.repository';
import { CreateSystemHookUseCase } from './use-cases/create-system-hook.use-case';
import { DeleteSystemHookUseCase } from './use-cases/delete-system-hook.use-case';
import { TestSystemHookUseCase } from './use-cases/test-system-hook.use-case';
import { UpdateSystemHookUseCase } from './use-cases/update-system-hook.use-case';

/**
 * System hooks: the administration API (`/hooks`) and the test delivery.
 * Needs the global ConfigModule, DatabaseModule and MessagingModule.
 */
@Module({
  controllers: [SystemHooksController],
  providers: [SystemHooksRepository, HookTokenCipher, HookHttpClient, CreateSystemHookUseCase, UpdateSystemHookUseCase, DeleteSystemHookUseCase, TestSystemHookUseCase],
  exports: [SystemHooksRepository, HookTokenCipher, HookHttpClient],
})
export class HooksModule {}
