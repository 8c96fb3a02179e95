import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A project topic (GitLab's `topics`). Rows are created by a database trigger whenever a
 * project gets a topic name not seen before (names are unique case-insensitively); the
 * projects themselves keep their topic names in `projects.topics`.
 */
@Entity('topics')
@Index('topics_name_lower_key', { synchronize: false })
export class TopicEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
