import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const ACCESS_LEVELS = { NO_ACCESS: 0, MINIMAL: 5, GUEST: 10, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50, ADMIN: 60 } as const;
export const MEMBER_ACCESS_LEVELS: readonly number[] = [10, 20, 30, 40, 50];

/** Direct membership of a user in a project or a group (namespace). */
@Entity('members')
@Index('members_source_user_key', ['sourceType', 'sourceId', 'userId'], { unique: true })
export class MemberEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'source_type', type: 'varchar', length: 10 })
  sourceType: 'project' | 'namespace';

  @Column({ name: 'source_id' })
  sourceId: number;

  @Column({ name: 'user_id' })
  @Index()
  userId: number;

  @Column({ name: 'access_level', type: 'int' })
  accessLevel: number;

  @Column({ name: 'created_by_id', type: 'int', nullable: true })
  createdById: number | null;

  @Column({ name: 'expires_at', type: 'date', nullable: true })
  expiresAt: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
