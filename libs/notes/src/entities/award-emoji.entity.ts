import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An emoji a user awarded to an issue, merge request, snippet or epic (a note body of only `:name:`). */
@Entity('award_emoji')
@Index('award_emoji_awardable_name_user_key', ['awardableType', 'awardableId', 'name', 'userId'], { unique: true })
export class AwardEmojiEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @Column({ name: 'awardable_type', type: 'varchar', length: 20 })
  awardableType: string;

  @Column({ name: 'awardable_id', type: 'int' })
  awardableId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
