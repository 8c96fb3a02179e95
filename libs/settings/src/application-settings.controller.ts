import { Body, Controller, Get, Put } from '@nestjs/common';
import { AdminOnly, CurrentPrincipal, DomainError, Principal, tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { presentApplicationSettings } from './application-settings.presenter';
import { SettingsReader } from './core/settings-reader';
import { UpdateApplicationSettingsUseCase } from './use-cases/update-application-settings.use-case';

/** `GET/PUT /application/settings`: administrators only. */
@Controller('application/settings')
@AdminOnly()
export class ApplicationSettingsController {
  constructor(
    private readonly config: AppConfig,
    private readonly reader: SettingsReader,
    private readonly updateSettings: UpdateApplicationSettingsUseCase,
  ) {}

  @Get()
  async get(): Promise<Record<string, unknown>> {
    return presentApplicationSettings(await this.reader.get(), { premium: this.premium });
  }

  /** Parameters as query string, form or JSON body; unknown parameters are ignored. */
  @Put()
  async update(@Body() body: unknown, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw DomainError.badRequest('The parameters must be a JSON object, a form or a query string');
    }
    const { settings } = await this.updateSettings.execute({ params: (body ?? {}) as Record<string, unknown>, actorId: principal.user.id });
    return presentApplicationSettings(settings, { premium: this.premium, update: true });
  }

  private get premium(): boolean {
    return tierAtLeast(this.config.tier, 'premium');
  }
}
