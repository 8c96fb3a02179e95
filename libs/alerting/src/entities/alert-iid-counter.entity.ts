import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The last alert iid of a project; its row lock serializes alert creation in that project. */
@Entity('alert_iid_counters')
export class AlertIidCounterEntity {
  @PrimaryColumn({ name: 'project_id' })
  projectId: number;

  @Column({ name: 'last_iid', type: 'int', default: 0 })
  lastIid: number;
}
