import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import {
  AdminOnly,
  CurrentGroup,
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  GroupAccess,
  LastModified,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { CustomAttributeResource, CustomAttributeView } from './custom-attribute-resource';
import { CustomAttributesRepository } from './custom-attributes.repository';
import { DeleteCustomAttributeUseCase } from './delete-custom-attribute.use-case';
import { GroupCustomAttributeEntity, ProjectCustomAttributeEntity, UserCustomAttributeEntity } from './entities/custom-attribute.entity';
import { SetCustomAttributeUseCase } from './set-custom-attribute.use-case';

const NO_ACCESS = 0;

/**
 * Custom attributes of users, groups and projects (administrators only):
 * `GET /<resource>/:id/custom_attributes`, `GET|PUT|DELETE /<resource>/:id/custom_attributes/:key`.
 * Groups and projects are resolved by the auth guard (id or URL-encoded full path); users by id or username.
 */
@Controller()
@AdminOnly()
export class CustomAttributesController {
  constructor(
    private readonly attributes: CustomAttributesRepository,
    private readonly setAttribute: SetCustomAttributeUseCase,
    private readonly deleteAttribute: DeleteCustomAttributeUseCase,
  ) {}

  @Get('users/:id/custom_attributes')
  async listOfUser(@Param('id') id: string): Promise<CustomAttributeView[]> {
    return this.list(await this.user(id));
  }

  @Get('users/:id/custom_attributes/:key')
  async getOfUser(@Param('id') id: string, @Param('key') key: string): Promise<CustomAttributeView> {
    return this.get(await this.user(id), key);
  }

  @Put('users/:id/custom_attributes/:key')
  async setOfUser(
    @Param('id') id: string,
    @Param('key') key: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CustomAttributeView> {
    return this.set(await this.user(id), key, body, principal);
  }

  @Delete('users/:id/custom_attributes/:key')
  @LastModified(async (request, get) => {
    const user = await get(CustomAttributesRepository).findUser(request.params.id);
    return user ? rowChangedAt(get, UserCustomAttributeEntity, { userId: user.id, key: request.params.key }) : null;
  })
  @HttpCode(204)
  async deleteOfUser(@Param('id') id: string, @Param('key') key: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteAttribute.execute({ resource: await this.user(id), key, actorId: principal.user.id });
  }

  @Get('groups/:id/custom_attributes')
  @GroupAccess(NO_ACCESS)
  listOfGroup(@CurrentGroup() access: ResourceAccess): Promise<CustomAttributeView[]> {
    return this.list(groupResource(access));
  }

  @Get('groups/:id/custom_attributes/:key')
  @GroupAccess(NO_ACCESS)
  getOfGroup(@CurrentGroup() access: ResourceAccess, @Param('key') key: string): Promise<CustomAttributeView> {
    return this.get(groupResource(access), key);
  }

  @Put('groups/:id/custom_attributes/:key')
  @GroupAccess(NO_ACCESS)
  setOfGroup(
    @CurrentGroup() access: ResourceAccess,
    @Param('key') key: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CustomAttributeView> {
    return this.set(groupResource(access), key, body, principal);
  }

  @Delete('groups/:id/custom_attributes/:key')
  @LastModified((request, get) => rowChangedAt(get, GroupCustomAttributeEntity, { groupId: groupResource(request.groupAccess!).id, key: request.params.key }))
  @GroupAccess(NO_ACCESS)
  @HttpCode(204)
  async deleteOfGroup(@CurrentGroup() access: ResourceAccess, @Param('key') key: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteAttribute.execute({ resource: groupResource(access), key, actorId: principal.user.id });
  }

  @Get('projects/:id/custom_attributes')
  @ProjectAccess(NO_ACCESS)
  listOfProject(@CurrentProject() access: ResourceAccess): Promise<CustomAttributeView[]> {
    return this.list(projectResource(access));
  }

  @Get('projects/:id/custom_attributes/:key')
  @ProjectAccess(NO_ACCESS)
  getOfProject(@CurrentProject() access: ResourceAccess, @Param('key') key: string): Promise<CustomAttributeView> {
    return this.get(projectResource(access), key);
  }

  @Put('projects/:id/custom_attributes/:key')
  // Administrators' metadata: kept writable on archived projects, as GitLab.
  @ProjectAccess(NO_ACCESS, { allowArchived: true })
  setOfProject(
    @CurrentProject() access: ResourceAccess,
    @Param('key') key: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CustomAttributeView> {
    return this.set(projectResource(access), key, body, principal);
  }

  @Delete('projects/:id/custom_attributes/:key')
  @LastModified((request, get) =>
    rowChangedAt(get, ProjectCustomAttributeEntity, { projectId: projectResource(request.projectAccess!).id, key: request.params.key }),
  )
  // Administrators' metadata: kept writable on archived projects, as GitLab.
  @ProjectAccess(NO_ACCESS, { allowArchived: true })
  @HttpCode(204)
  async deleteOfProject(@CurrentProject() access: ResourceAccess, @Param('key') key: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteAttribute.execute({ resource: projectResource(access), key, actorId: principal.user.id });
  }

  private list(resource: CustomAttributeResource): Promise<CustomAttributeView[]> {
    return this.attributes.list(resource.type, resource.id);
  }

  private async get(resource: CustomAttributeResource, key: string): Promise<CustomAttributeView> {
    const found = await this.attributes.find(resource.type, resource.id, key);
    if (!found) throw DomainError.notFound('Custom Attribute');
    return found;
  }

  private set(resource: CustomAttributeResource, key: string, body: unknown, principal: Principal): Promise<CustomAttributeView> {
    const value = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).value : undefined;
    return this.setAttribute.execute({ resource, key, value, actorId: principal.user.id });
  }

  /** A user by id or (case-insensitive) username; 404 otherwise. */
  private async user(ref: string): Promise<CustomAttributeResource> {
    const user = await this.attributes.findUser(ref);
    if (!user) throw DomainError.notFound('User');
    return { type: 'user', id: user.id, title: user.username };
  }
}

/** What this lib reads of the group and the project the auth guard resolved (namespaces' entities, named structurally: this lib stands below namespaces). */
interface GroupRow {
  id: number;
  fullPath: string;
}

interface ProjectRow {
  id: number;
  path: string;
  namespace?: GroupRow;
}

function groupResource(access: ResourceAccess): CustomAttributeResource {
  const group = access.resource as GroupRow;
  return { type: 'group', id: group.id, title: group.fullPath };
}

function projectResource(access: ResourceAccess): CustomAttributeResource {
  const project = access.resource as ProjectRow;
  return { type: 'project', id: project.id, title: project.namespace ? `${project.namespace.fullPath}/${project.path}` : project.path };
}
