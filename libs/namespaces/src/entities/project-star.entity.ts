import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '@app/identity';
import { ProjectEntity } from './project.entity';

/**
 * A user's star on a project (GitLab's `users_star_projects`). One row per (user, project);
 * `projects.star_count` is kept equal to the number of rows by a database trigger, so that it
 * stays right under concurrent stars and when users or projects are deleted (cascade).
 */
@Entity('project_stars')
@Index('project_stars_project_created_idx', ['projectId', 'createdAt'])
export class ProjectStarEntity {
  @PrimaryColumn({ name: 'user_id', type: 'int' })
  userId: number;

  @PrimaryColumn({ name: 'project_id', type: 'int' })
  projectId: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
