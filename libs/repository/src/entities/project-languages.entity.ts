import { ProjectEntity } from '@app/namespaces';
import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * Language statistics of a project's default branch, computed for one commit
 * (`GET /projects/:id/languages`; the `with_programming_language` filter reads `languages`).
 */
@Entity('project_languages')
export class ProjectLanguagesEntity {
  @PrimaryColumn({ name: 'project_id', type: 'int' })
  projectId: number;

  @OneToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ name: 'commit_sha', type: 'varchar', length: 40 })
  commitSha: string;

  /** Language name → percentage of the bytes (2 decimals). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  languages: Record<string, number>;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
