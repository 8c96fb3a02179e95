import { Check, Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The id of the one row. */
export const APPLICATION_SETTINGS_ID = 1;

/**
 * The instance's settings: ONE row (`id = 1`). Values live in `jsonb` (only what an
 * administrator set; defaults are applied when read, so a new setting needs no migration and
 * no backfill); secrets live apart, encrypted (`{name: "v1:<key id>:<base64>"}`).
 */
@Entity('application_settings')
@Check('application_settings_singleton', `"id" = 1`)
export class ApplicationSettingsEntity {
  @PrimaryColumn({ type: 'int', default: APPLICATION_SETTINGS_ID })
  id: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  values: Record<string, unknown>;

  @Column({ name: 'encrypted_secrets', type: 'jsonb', default: () => "'{}'" })
  encryptedSecrets: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
