import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { CiJobEntity } from './ci-job.entity';

/**
 * Where the log of a job is and how long it is: the runner appends with `Content-Range`, so
 * `size` is the offset the next chunk must start at. The bytes live in object storage.
 */
@Entity('ci_job_traces')
export class CiJobTraceEntity {
  @PrimaryColumn({ name: 'job_id', type: 'int' })
  jobId: number;

  @OneToOne(() => CiJobEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'job_id' })
  job?: CiJobEntity;

  @Column({ name: 'storage_key', type: 'varchar', length: 512 })
  storageKey: string;

  @Column({ type: 'bigint', default: 0 })
  size: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
