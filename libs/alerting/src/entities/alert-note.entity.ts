import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AlertEntity } from './alert.entity';

/** A system note on an alert (alert logged, recovery logged, status changed). */
@Entity('alert_notes')
export class AlertNoteEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'alert_id' })
  @Index()
  alertId: number;

  @ManyToOne(() => AlertEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'alert_id' })
  alert?: AlertEntity;

  /** The user who acted; null when the monitoring integration did. */
  @Column({ name: 'author_id', type: 'int', nullable: true })
  authorId: number | null;

  @Column({ type: 'text' })
  body: string;

  @Column({ default: true })
  system: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
