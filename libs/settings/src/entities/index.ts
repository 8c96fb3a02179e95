export * from './application-settings.entity';

import { ApplicationSettingsEntity } from './application-settings.entity';

/** This library's entities, listed in the apps' `ENTITIES`. */
export const SETTINGS_ENTITIES = [ApplicationSettingsEntity];
