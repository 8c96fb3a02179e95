import { Column, CreateDateColumn, Entity, Index, OneToMany, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Visibility } from '@app/namespaces';
import { SnippetFileEntity } from './snippet-file.entity';

/** A project snippet: one or several files stored whole in the database. */
@Entity('snippets')
@Index('snippets_project_id_idx', ['projectId', 'id'])
export class SnippetEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'int' })
  projectId: number;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 10, default: 'private' })
  visibility: Visibility;

  @OneToMany(() => SnippetFileEntity, (file) => file.snippet, { cascade: true })
  files?: SnippetFileEntity[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
