import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AccessUser } from '../access/access-policy';
import { ProjectStarEntity } from '../entities/project-star.entity';
import { likePattern } from '../naming/naming';

/** Stars of projects. `projects.star_count` follows the rows through a database trigger. */
@Injectable()
export class ProjectStarsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds the star; false when it already existed (concurrent calls: exactly one gets true). */
  async add(userId: number, projectId: number, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = (await manager.query(
      'INSERT INTO project_stars (user_id, project_id) VALUES ($1, $2) ON CONFLICT (user_id, project_id) DO NOTHING RETURNING project_id',
      [userId, projectId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Removes the star; false when there was none. */
  async remove(userId: number, projectId: number, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const [rows] = (await manager.query('DELETE FROM project_stars WHERE user_id = $1 AND project_id = $2 RETURNING project_id', [userId, projectId])) as [
      unknown[],
      number,
    ];
    return rows.length > 0;
  }

  /**
   * Starrers of a project, most recent first, with their user. Users with a private profile
   * are shown only to themselves and administrators; `search` matches username or name.
   */
  starrersQuery(projectId: number, viewer: AccessUser | null, search?: string): SelectQueryBuilder<ProjectStarEntity> {
    const qb = this.dataSource.manager
      .getRepository(ProjectStarEntity)
      .createQueryBuilder('s')
      .innerJoinAndSelect('s.user', 'u')
      .where('s.project_id = :projectId', { projectId });
    if (!viewer?.isAdmin) qb.andWhere('(u.private_profile = false OR u.id = :viewerId)', { viewerId: viewer?.id ?? 0 });
    if (search) qb.andWhere('(u.username ILIKE :q OR u.name ILIKE :q)', { q: likePattern(search) });
    return qb.orderBy('s.createdAt', 'DESC').addOrderBy('s.userId', 'DESC');
  }
}
