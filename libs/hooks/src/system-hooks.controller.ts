import { AdminOnly, CurrentPrincipal, DomainError, idParam, LastModified, paginateOffset, Principal, rowChangedAt } from '@app/api';
import { SystemHookEntity } from './entities/system-hook.entity';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HookDeliveriesRepository } from './delivery/hook-deliveries.repository';
import { CreateSystemHookDto, ListHookDeliveriesDto, UpdateSystemHookDto } from './dto/system-hook.dto';
import { HookDeliveryRecord, presentHookDelivery, presentSystemHook, SystemHookRecord } from './system-hook.presenter';
import { SystemHooksRepository } from './core/system-hooks.repository';
import { CreateSystemHookUseCase } from './use-cases/create-system-hook.use-case';
import { DeleteSystemHookUseCase } from './use-cases/delete-system-hook.use-case';
import { ResendHookDeliveryUseCase } from './use-cases/resend-hook-delivery.use-case';
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
    private readonly config: AppConfig,
    private readonly hooks: SystemHooksRepository,
    private readonly deliveries: HookDeliveriesRepository,
    private readonly resendDelivery: ResendHookDeliveryUseCase,
    private readonly createHook: CreateSystemHookUseCase,
    private readonly updateHook: UpdateSystemHookUseCase,
    private readonly deleteHook: DeleteSystemHookUseCase,
    private readonly testHook: TestSystemHookUseCase,
  ) {}

  @Get()
  async list(): Promise<SystemHookRecord[]> {
    return (await this.hooks.list()).map((hook) => presentSystemHook(hook));
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

  /** The hook's delivery log (beyond the spec): one entry per attempt, newest first, kept 14 days. */
  @Get(':id/events')
  async events(
    @Param('id') id: string,
    @Query() filter: ListHookDeliveriesDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HookDeliveryRecord[]> {
    const hook = await this.hooks.find(hookId(id));
    if (!hook) throw DomainError.notFound('System hook');
    const rows = await paginateOffset(this.deliveries.listQuery(hook.id, filter.status), request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map(presentHookDelivery);
  }

  /** Sends a logged delivery again with the same `Idempotency-Key` (`:event_id` is the log entry's `id`). */
  @Post(':id/events/:event_id/resend')
  resend(@Param('id') id: string, @Param('event_id') eventId: string): Promise<{ job_id: string; idempotency_key: string }> {
    return this.resendDelivery.execute({ hookId: hookId(id), deliveryId: eventId });
  }

  @Delete(':id')
  @LastModified((request, get) => rowChangedAt(get, SystemHookEntity, { id: hookId(request.params.id) }))
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteHook.execute({ hookId: hookId(id), actorId: principal.user.id });
  }
}

/** The numeric id of the path; anything else is an unknown hook. */
const hookId = (id: string): number => idParam(id, 'System hook');
