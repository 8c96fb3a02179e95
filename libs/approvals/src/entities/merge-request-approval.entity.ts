import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '@app/identity';
import { MergeRequestEntity } from '@app/issues';

/** One user's approval of a merge request (counts for every rule the user is eligible for). */
@Entity('merge_request_approvals')
export class MergeRequestApprovalEntity {
  @PrimaryColumn({ name: 'merge_request_id', type: 'int' })
  mergeRequestId: number;

  @ManyToOne(() => MergeRequestEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merge_request_id' })
  mergeRequest?: MergeRequestEntity;

  @PrimaryColumn({ name: 'user_id', type: 'int' })
  @Index('merge_request_approvals_user_idx')
  userId: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
