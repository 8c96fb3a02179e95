import { ApplicationSettings } from './core/application-settings';
import { DEPRECATED_ALIASES, definitionOf, SETTING_NAMES } from './core/setting-definitions';

export interface PresentSettingsOptions {
  /** PREMIUM settings exist on this instance. */
  premium: boolean;
  /** `PUT` responses also list `repository_storages`. */
  update?: boolean;
}

/**
 * The application settings record: `id`, every setting of the instance's tier, the deprecated
 * names mirroring their replacements, `created_at`, `updated_at`. Secrets are write-only:
 * they never appear.
 */
export function presentApplicationSettings(settings: ApplicationSettings, options: PresentSettingsOptions): Record<string, unknown> {
  const record: Record<string, unknown> = { id: settings.id };
  for (const name of SETTING_NAMES) {
    const definition = definitionOf(name)!;
    if (definition.secret || (definition.tier === 'premium' && !options.premium)) continue;
    record[name] = settings.values[name];
  }
  // Deprecated: always on.
  record.housekeeping_bitmaps_enabled = true;
  for (const [alias, replacement] of Object.entries(DEPRECATED_ALIASES)) record[alias] = record[replacement];
  if (options.update) {
    const weights = (settings.values.repository_storages_weighted ?? {}) as Record<string, number>;
    record.repository_storages = Object.keys(weights).filter((storage) => weights[storage] > 0);
  }
  record.created_at = settings.createdAt.toISOString();
  record.updated_at = settings.updatedAt.toISOString();
  return record;
}
