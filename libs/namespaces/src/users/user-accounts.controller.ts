import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { AdminOnly, CurrentPrincipal, DomainError, idParam, LastModified, Principal, rowChangedAt } from '@app/api';
import { AppConfig } from '@app/config';
import { CreateUserDto, presentUser, UserEntity } from '@app/identity';
import { CreateUserUseCase } from './create-user.use-case';
import { DeleteUserUseCase } from './delete-user.use-case';

/** POST /users and DELETE /users/:id: they create and remove the user's personal namespace too (the reads stay in identity's UsersController). */
@Controller()
export class UserAccountsController {
  constructor(
    private readonly config: AppConfig,
    private readonly createUser: CreateUserUseCase,
    private readonly deleteUser: DeleteUserUseCase,
  ) {}

  @Post('users')
  @AdminOnly()
  async create(@Body() dto: CreateUserDto, @CurrentPrincipal() principal: Principal): Promise<unknown> {
    if (!dto.password && !dto.reset_password && !dto.force_random_password) throw DomainError.missing('password');
    const user = await this.createUser.execute({
      email: dto.email,
      name: dto.name,
      username: dto.username,
      password: dto.password,
      admin: dto.admin,
      external: dto.external,
      privateProfile: dto.private_profile,
      canCreateGroup: dto.can_create_group,
      projectsLimit: dto.projects_limit,
      checkEmailDomain: true,
      profile: {
        bio: dto.bio,
        location: dto.location,
        publicEmail: dto.public_email,
        skype: dto.skype,
        linkedin: dto.linkedin,
        twitter: dto.twitter,
        websiteUrl: dto.website_url,
        organization: dto.organization,
        jobTitle: dto.job_title,
      },
      actorId: principal.user.id,
    });
    return presentUser(user, 'admin', this.config.http.externalUrl);
  }

  @Delete('users/:id')
  @LastModified((request, get) => rowChangedAt(get, UserEntity, { id: idParam(request.params.id, 'User') }))
  @AdminOnly()
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteUser.execute({ userId: idParam(id, 'User'), actorId: principal.user.id });
  }
}
