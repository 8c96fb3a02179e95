import { definitionOf, SETTING_DEFINITIONS, SETTING_NAMES, SettingName, SettingsContext, SettingValue } from './setting-definitions';

/**
 * A snapshot of the instance's settings, defaults applied. Secrets are not part of it: it
 * only knows which of them hold a value (the cache never keeps plaintext secrets).
 */
export class ApplicationSettings {
  constructor(
    readonly id: number,
    readonly createdAt: Date,
    readonly updatedAt: Date,
    readonly values: Readonly<Record<SettingName, SettingValue>>,
    readonly secretsSet: ReadonlySet<string>,
  ) {}

  /** Stored values over the defaults; secrets and unknown keys left out. */
  static resolve(
    row: { id: number; createdAt: Date; updatedAt: Date; values: Record<string, unknown>; encryptedSecrets: Record<string, string> },
    context: SettingsContext,
  ): ApplicationSettings {
    const values = {} as Record<SettingName, SettingValue>;
    for (const name of SETTING_NAMES) {
      const definition = definitionOf(name)!;
      if (definition.secret) continue;
      const stored = row.values[name];
      values[name] =
        stored !== undefined
          ? (stored as SettingValue)
          : typeof definition.default === 'function'
            ? definition.default(context)
            : structuredClone(definition.default);
    }
    const secretsSet = new Set(Object.keys(row.encryptedSecrets).filter((name) => definitionOf(name)?.secret));
    return new ApplicationSettings(row.id, row.createdAt, row.updatedAt, values, secretsSet);
  }

  /** Every default, for a process that has not read the database (unit tests of callers). */
  static defaults(context: SettingsContext, overrides: Partial<Record<SettingName, SettingValue>> = {}): ApplicationSettings {
    const now = new Date(0);
    return ApplicationSettings.resolve({ id: 1, createdAt: now, updatedAt: now, values: overrides, encryptedSecrets: {} }, context);
  }

  string(name: SettingName): string | null {
    const value = this.values[name];
    return typeof value === 'string' ? value : null;
  }

  number(name: SettingName): number {
    const value = this.values[name];
    return typeof value === 'number' ? value : Number(typeof SETTING_DEFINITIONS[name].default === 'number' ? SETTING_DEFINITIONS[name].default : 0);
  }

  boolean(name: SettingName): boolean {
    return this.values[name] === true;
  }

  strings(name: SettingName): string[] {
    const value = this.values[name];
    return Array.isArray(value) ? value.map(String) : [];
  }
}
