import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { APPLICATION_SETTINGS_ID, ApplicationSettingsEntity } from '../entities/application-settings.entity';

/** The one settings row. */
@Injectable()
export class SettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The row, created when missing (a database restored without it still works). */
  async load(manager: EntityManager = this.dataSource.manager): Promise<ApplicationSettingsEntity> {
    const found = await manager.findOneBy(ApplicationSettingsEntity, { id: APPLICATION_SETTINGS_ID });
    if (found) return found;
    await manager.query('INSERT INTO application_settings (id) VALUES ($1) ON CONFLICT DO NOTHING', [APPLICATION_SETTINGS_ID]);
    return manager.findOneByOrFail(ApplicationSettingsEntity, { id: APPLICATION_SETTINGS_ID });
  }

  /** The row locked until the end of the caller's transaction: concurrent updates apply one after the other. */
  async loadForUpdate(tx: EntityManager): Promise<ApplicationSettingsEntity> {
    await this.load(tx);
    return tx
      .getRepository(ApplicationSettingsEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.id = :id', { id: APPLICATION_SETTINGS_ID })
      .getOneOrFail();
  }

  async save(tx: EntityManager, values: Record<string, unknown>, encryptedSecrets: Record<string, string>): Promise<ApplicationSettingsEntity> {
    await tx.query('UPDATE application_settings SET "values" = $2, encrypted_secrets = $3, updated_at = now() WHERE id = $1', [
      APPLICATION_SETTINGS_ID,
      JSON.stringify(values),
      JSON.stringify(encryptedSecrets),
    ]);
    return tx.findOneByOrFail(ApplicationSettingsEntity, { id: APPLICATION_SETTINGS_ID });
  }
}
