import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { JobStatus } from '../status/ci-status';
import { CiPipelineEntity } from './ci-pipeline.entity';

/** A stage of a pipeline; its status is composed from its jobs. */
@Entity('ci_stages')
@Index(['pipelineId', 'name'], { unique: true })
export class CiStageEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'pipeline_id', type: 'int' })
  pipelineId: number;

  @ManyToOne(() => CiPipelineEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pipeline_id' })
  pipeline?: CiPipelineEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Order of the stage in the configuration (`.pre` is 0). */
  @Column({ type: 'int' })
  position: number;

  @Column({ type: 'varchar', length: 30 })
  status: JobStatus;
}
