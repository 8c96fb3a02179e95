import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ProjectEntity } from './project.entity';

const size = (name: string) => Column({ name, type: 'bigint', default: 0 });

/**
 * Sizes and counters of a project (`statistics` of the full view, size orders of the project
 * list). A project without a row has every value 0. `storage_size` is recomputed by a
 * database trigger as the sum of the other sizes; writers only set the parts they know
 * (see `ProjectStatisticsRepository`).
 */
@Entity('project_statistics')
export class ProjectStatisticsEntity {
  @PrimaryColumn({ name: 'project_id', type: 'int' })
  projectId: number;

  @OneToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @size('commit_count') commitCount: string;
  @size('storage_size') storageSize: string;
  @size('repository_size') repositorySize: string;
  @size('wiki_size') wikiSize: string;
  @size('lfs_objects_size') lfsObjectsSize: string;
  @size('job_artifacts_size') jobArtifactsSize: string;
  @size('pipeline_artifacts_size') pipelineArtifactsSize: string;
  @size('packages_size') packagesSize: string;
  @size('snippets_size') snippetsSize: string;
  @size('uploads_size') uploadsSize: string;
  @size('container_registry_size') containerRegistrySize: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
