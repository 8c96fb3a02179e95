import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A group iteration (PREMIUM): a time box; its state follows from its dates. */
@Entity('iterations')
@Index('iterations_group_iid_key', ['groupId', 'iid'], { unique: true })
export class IterationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  iid: number;

  @Column({ name: 'group_id', type: 'int' })
  groupId: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  title: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'start_date', type: 'date' })
  startDate: string;

  @Column({ name: 'due_date', type: 'date' })
  dueDate: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
