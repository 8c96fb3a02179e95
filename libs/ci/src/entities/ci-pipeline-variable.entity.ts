import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CiPipelineEntity } from './ci-pipeline.entity';

export type CiVariableType = 'env_var' | 'file';

/** A variable given to a pipeline when it was created (API, trigger). */
@Entity('ci_pipeline_variables')
@Index(['pipelineId', 'key'], { unique: true })
export class CiPipelineVariableEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'pipeline_id', type: 'int' })
  pipelineId: number;

  @ManyToOne(() => CiPipelineEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pipeline_id' })
  pipeline?: CiPipelineEntity;

  @Column({ type: 'varchar', length: 255 })
  key: string;

  @Column({ type: 'text' })
  value: string;

  @Column({ name: 'variable_type', type: 'varchar', length: 10, default: 'env_var' })
  variableType: CiVariableType;
}
