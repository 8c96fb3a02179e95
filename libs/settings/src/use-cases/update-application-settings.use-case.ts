import { Injectable } from '@nestjs/common';
import { DomainError, tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { OutboxService } from '@app/messaging';
import { SecretDecryptionError, SettingsEncryption } from '@app/secrets';
import { isDeepStrictEqual } from 'node:util';
import { DataSource } from 'typeorm';
import { ApplicationSettings } from '../core/application-settings';
import { CachedSettingsReader, settingsContextOf } from '../core/cached-settings.reader';
import { APPLICATION_SETTINGS_ID } from '../entities/application-settings.entity';
import { definitionOf, SettingValue } from '../core/setting-definitions';
import { validateSettingsUpdate } from '../core/settings-update';
import { SETTINGS_EVENTS } from '../core/settings.events';
import { SettingsRepository } from '../core/settings.repository';

/** What the audit event shows in place of a secret value. */
export const REDACTED = '[REDACTED]';

export interface UpdateApplicationSettingsCommand {
  /** The request's parameters (query string and body merged). */
  params: Record<string, unknown>;
  actorId: number;
}

export interface UpdatedApplicationSettings {
  settings: ApplicationSettings;
  changedKeys: string[];
}

/**
 * `PUT /application/settings`: validates every parameter against the current settings
 * (row locked), stores what changed (secrets encrypted), records `application_settings_update`
 * with who changed which keys (secret values redacted) in the same transaction, then tells
 * every process to drop its cached copy.
 */
@Injectable()
export class UpdateApplicationSettingsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly repository: SettingsRepository,
    private readonly encryption: SettingsEncryption,
    private readonly outbox: OutboxService,
    private readonly reader: CachedSettingsReader,
  ) {}

  async execute(command: UpdateApplicationSettingsCommand): Promise<UpdatedApplicationSettings> {
    const context = settingsContextOf(this.config);
    const result = await this.dataSource.transaction(async (tx) => {
      const row = await this.repository.loadForUpdate(tx);
      const current = ApplicationSettings.resolve(row, context);
      const checked = validateSettingsUpdate(command.params, current, { premium: tierAtLeast(this.config.tier, 'premium'), host: context.host });
      if (!checked.ok) throw DomainError.invalid(checked.errors);

      const values = { ...row.values };
      const secrets = { ...row.encryptedSecrets };
      const changes: Record<string, { from: SettingValue; to: SettingValue }> = {};
      for (const [name, value] of Object.entries(checked.changes)) {
        if (definitionOf(name)!.secret) {
          const previous = this.plaintextOf(name, secrets[name]);
          const next = typeof value === 'string' && value !== '' ? value : null;
          if (previous === next) continue;
          if (next === null) delete secrets[name];
          else secrets[name] = this.encryption.encrypt(name, next);
          changes[name] = { from: previous === null ? null : REDACTED, to: next === null ? null : REDACTED };
        } else {
          const previous = current.values[name as keyof typeof current.values];
          if (isDeepStrictEqual(previous, value)) continue;
          values[name] = value;
          changes[name] = { from: previous, to: value as SettingValue };
        }
      }
      const changedKeys = Object.keys(changes);
      if (changedKeys.length === 0) return { row, changedKeys };
      const saved = await this.repository.save(tx, values, secrets);
      await this.outbox.append(tx, {
        type: SETTINGS_EVENTS.UPDATE,
        actor: command.actorId,
        target: { type: 'application_settings', id: APPLICATION_SETTINGS_ID, title: null },
        data: { changed_keys: changedKeys, changes },
      });
      return { row: saved, changedKeys };
    });
    if (result.changedKeys.length > 0) await this.reader.publishChange();
    return { settings: ApplicationSettings.resolve(result.row, context), changedKeys: result.changedKeys };
  }

  /** The stored plaintext; a value that no longer decrypts (key changed) counts as different from anything. */
  private plaintextOf(name: string, ciphertext: string | undefined): string | null {
    if (ciphertext === undefined) return null;
    try {
      return this.encryption.decrypt(name, ciphertext);
    } catch (error) {
      if (error instanceof SecretDecryptionError) return `\u0000undecryptable:${ciphertext}`;
      throw error;
    }
  }
}
