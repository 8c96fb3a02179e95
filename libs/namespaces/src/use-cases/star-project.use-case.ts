import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { DataSource } from 'typeorm';
import { ProjectStarsRepository } from '../repositories/project-stars.repository';
import { ProjectsRepository, ProjectWithNamespace } from '../repositories/projects.repository';

export interface StarProjectCommand {
  userId: number;
  projectId: number;
  /** true: star; false: unstar. */
  star: boolean;
}

export interface StarProjectResult {
  /** false when the project was already (un)starred by the user: 304. */
  changed: boolean;
  project: ProjectWithNamespace;
}

/**
 * Stars or unstars a project for a user. The star row and `star_count` change in one
 * transaction (the count follows the rows through a trigger), so concurrent stars from many
 * users all count and a repeated star changes nothing.
 */
@Injectable()
export class StarProjectUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stars: ProjectStarsRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute(command: StarProjectCommand): Promise<StarProjectResult> {
    return this.dataSource.transaction(async (tx) => {
      const changed = command.star
        ? await this.stars.add(command.userId, command.projectId, tx)
        : await this.stars.remove(command.userId, command.projectId, tx);
      const project = await this.projects.findById(command.projectId, tx);
      if (!project) throw DomainError.notFound('Project');
      return { changed, project };
    });
  }
}
