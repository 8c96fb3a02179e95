import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One relation (or line) an import could not take: `failed_relations` of the import status. */
@Entity('project_import_failures')
@Index('project_import_failures_project_idx', ['projectId', 'id'])
export class ProjectImportFailureEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'int' })
  projectId: number;

  @Column({ name: 'relation_name', type: 'varchar', length: 255 })
  relationName: string;

  @Column({ name: 'line_number', type: 'int', nullable: true })
  lineNumber: number | null;

  @Column({ name: 'exception_class', type: 'varchar', length: 255 })
  exceptionClass: string;

  @Column({ name: 'exception_message', type: 'text' })
  exceptionMessage: string;

  @Column({ type: 'varchar', length: 255 })
  source: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
