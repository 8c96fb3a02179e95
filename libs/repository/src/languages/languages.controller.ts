import { Controller, Get } from '@nestjs/common';
import { CurrentPrincipal, CurrentProject, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import { RepositoryStorage } from '../storage/repository-storage';
import { LanguagesService } from './languages.service';

@Controller()
export class LanguagesController {
  constructor(
    private readonly storage: RepositoryStorage,
    private readonly languages: LanguagesService,
  ) {}

  /** `GET /projects/:id/languages`: `{language: percent}` of the default branch, by bytes. */
  @Get('projects/:id/languages')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal | null): Promise<Record<string, number>> {
    const project = projectOf(access);
    return this.languages.languagesOf(project, await this.storage.open(project));
  }
}
