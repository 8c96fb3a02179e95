import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { AdminOnly, CurrentPrincipal, Principal } from '@app/api/auth';
import { DomainError } from '@app/api/errors';
import { CreateSystemHookDto, UpdateSystemHookDto } from './dto/system-hook.dto';
import { presentSystemHook, SystemHookRecord } from './system-hook.presenter';
import { SystemHooksRepository } from './system-hooks.repository';
import { CreateSystemHookUseCase } from './use-cases/create-system-hook.use-case';
import { DeleteSystemHookUseCase } from './use-cases/delete-system-hook.use-case';
import { SampleProjectCreateEvent, TestSystemHookUseCase } from './use-cases/test-system-hook.use-case';
import { UpdateSystemHookUseCase } from './use-cases/update-system-hook.use-case';

/**
 * System hooks (administrators only). As the API it mirrors, `GET /hooks/:id`, `POST /hooks`
 * and `PUT /hooks/:id` answer the record inside a one-element array.
 */
@Controller('hooks')
@AdminOnly()
export class SystemHooksController {
  constructor(
    private readonly hooks: SystemHooksRepository,
    private readonly createHook: CreateSystemHookUseCase,
    private readonly updateHook: UpdateSystemHookUseCase,
    private readonly deleteHook: DeleteSystemHookUseCase,
    private readonly testHook: TestSystemHookUseCase,
  ) {}

  @Get()
  async list(): Promise<SystemHookRecord[]> {
    return (await this.hooks.list()).map(presentSystemHook);
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<SystemHookRecord[]> {
    const hook = await this.hooks.find(hookId(id));
    if (!hook) throw DomainError.notFound('System hook');
    return [presentSystemHook(hook)];
  }

  @Post()
  async create(@Body() dto: CreateSystemHookDto, @CurrentPrincipal() principal: Principal): Promise<SystemHookRecord[]> {
    return [presentSystemHook(await this.createHook.execute({ attributes: dto, actorId: principal.user.id }))];
  }

  @Put(':id')
  async update(@Param('id') id: string, @Body() dto: UpdateSystemHookDto, @CurrentPrincipal() principal: Principal): Promise<SystemHookRecord[]> {
    return [presentSystemHook(await this.updateHook.execute({ hookId: hookId(id), attributes: dto, actorId: principal.user.id }))];
  }

  @Post(':id')
  test(@Param('id') id: string): Promise<SampleProjectCreateEvent> {
    return this.testHook.execute(hookId(id));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteHook.execute({ hookId: hookId(id), actorId: principal.user.id });
  }
}

/** The numeric id of the path; anything else is an unknown hook. */
function hookId(id: string): number {
  if (!/^\d{1,10}$/.test(id)) throw DomainError.notFound('System hook');
  return Number(id);
}
