import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { SnippetEntity } from './snippet.entity';

/** One file of a snippet, in the order given (`position`); its content is never truncated. */
@Entity('snippet_files')
@Index('snippet_files_snippet_path_key', ['snippetId', 'path'], { unique: true })
export class SnippetFileEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'snippet_id', type: 'int' })
  snippetId: number;

  @ManyToOne(() => SnippetEntity, (snippet) => snippet.files, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'snippet_id' })
  snippet?: SnippetEntity;

  @Column({ type: 'int' })
  position: number;

  @Column({ type: 'varchar', length: 255 })
  path: string;

  @Column({ type: 'text' })
  content: string;
}
