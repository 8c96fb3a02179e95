// libs/settings: folders import only the folders below them, from the top down:
//   use-cases/ -> core/ (setting definitions and updates, events, SettingsRepository, the readers) -> entities/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs settings`.
export { ApplicationSettings } from './core/application-settings';
export { CreateRateLimit } from './create-rate-limit';
export { definitionOf, REQUIRES_RULES, SETTING_NAMES } from './core/setting-definitions';
export type { SettingDefinition } from './core/setting-definitions';
export { SettingsReader, StaticSettingsReader } from './core/settings-reader';
export { SettingsModule } from './settings.module';
export { defaultVisibilityWithin, emailDomainRestriction } from './signup-restrictions';
export { SETTINGS_ENTITIES } from './entities';
