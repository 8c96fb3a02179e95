import { ApplicationSettings } from './application-settings';

/**
 * Where the rest of the service reads the application settings. The module provides a
 * cached reader (invalidated in every process on change); tests of other libraries may
 * construct `StaticSettingsReader`.
 */
export abstract class SettingsReader {
  abstract get(): Promise<ApplicationSettings>;
}

/** Fixed settings (defaults plus overrides): for tests that wire services by hand. */
export class StaticSettingsReader extends SettingsReader {
  constructor(private settings: ApplicationSettings) {
    super();
  }

  get(): Promise<ApplicationSettings> {
    return Promise.resolve(this.settings);
  }

  set(settings: ApplicationSettings): void {
    this.settings = settings;
  }
}
