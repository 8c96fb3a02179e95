import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CiPipelineEntity } from './ci-pipeline.entity';

export type CiVariableType = 'env_var' | 'file';

/** What an encrypted pipeline variable value is bound to (its AES-GCM associated data). */
export const PIPELINE_VARIABLE_PURPOSE = 'ci_pipeline_variables.value';

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

  /** Plain value of rows written before values were encrypted; null since. */
  @Column({ type: 'text', nullable: true, select: false })
  value: string | null;

  /** The value, encrypted (`PIPELINE_VARIABLE_PURPOSE`). */
  @Column({ name: 'encrypted_value', type: 'text', nullable: true, select: false })
  encryptedValue: string | null;

  @Column({ name: 'variable_type', type: 'varchar', length: 10, default: 'env_var' })
  variableType: CiVariableType;
}
