export { ApplicationSettings } from './application-settings';
export { CreateRateLimit } from './create-rate-limit';
export { definitionOf, REQUIRES_RULES, SETTING_NAMES } from './setting-definitions';
export type { SettingDefinition } from './setting-definitions';
export { SettingsReader, StaticSettingsReader } from './settings-reader';
export { SettingsModule } from './settings.module';
export { defaultVisibilityWithin, emailDomainRestriction } from './signup-restrictions';
export { SETTINGS_ENTITIES } from './entities';
