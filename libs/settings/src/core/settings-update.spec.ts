import { ApplicationSettings } from './application-settings';
import { validateSettingsUpdate } from './settings-update';

const context = { host: 'git.example.com', sessionExpireDelayMinutes: 10080 };
const options = { premium: true, host: 'git.example.com' };
const current = (overrides: Record<string, unknown> = {}, secrets: string[] = []) => {
  const settings = ApplicationSettings.defaults(context, overrides as never);
  return { values: settings.values, secretsSet: new Set(secrets) };
};

describe(validateSettingsUpdate.name, () => {
  it('coerces query and form strings to their types', () => {
    const sut = validateSettingsUpdate(
      {
        signup_enabled: 'false',
        default_projects_limit: '12',
        polling_interval_multiplier: '1.5',
        import_sources: 'git,github',
        searchengine_project_ids: '4,5',
      },
      current(),
      options,
    );
    expect(sut).toEqual({
      ok: true,
      changes: {
        signup_enabled: false,
        default_projects_limit: 12,
        polling_interval_multiplier: 1.5,
        import_sources: ['git', 'github'],
        searchengine_project_ids: [4, 5],
      },
    });
  });

  it('ignores unknown parameters and, below PREMIUM, PREMIUM ones', () => {
    expect(validateSettingsUpdate({ unknown: 1, help_text: 'x' }, current(), { ...options, premium: false })).toEqual({ ok: true, changes: {} });
    expect(validateSettingsUpdate({ help_text: 'x' }, current(), options)).toEqual({ ok: true, changes: { help_text: 'x' } });
  });

  it('maps deprecated names to their replacements and refuses both with different values', () => {
    expect(validateSettingsUpdate({ admin_notification_email: 'a@example.com' }, current(), options)).toEqual({
      ok: true,
      changes: { abuse_notification_email: 'a@example.com' },
    });
    expect(validateSettingsUpdate({ admin_notification_email: 'a@example.com', abuse_notification_email: 'a@example.com' }, current(), options).ok).toBe(true);
    expect(validateSettingsUpdate({ admin_notification_email: 'a@example.com', abuse_notification_email: 'b@example.com' }, current(), options).ok).toBe(false);
  });

  it('always keeps the instance host in the asset proxy allowlist', () => {
    expect(validateSettingsUpdate({ asset_proxy_whitelist: 'cdn.test' }, current(), options)).toEqual({
      ok: true,
      changes: { asset_proxy_allowlist: ['cdn.test', 'git.example.com'] },
    });
  });

  it('requires companions in the same request when a flag is turned on', () => {
    expect(validateSettingsUpdate({ spamcheck_enabled: true }, current({}, ['spamcheck_api_key']), options)).toEqual({
      ok: false,
      errors: { spamcheck_api_key: ['is required when spamcheck_enabled is true'] },
    });
    expect(validateSettingsUpdate({ spamcheck_enabled: true, spamcheck_api_key: 'k' }, current(), options).ok).toBe(true);
    // Turning a flag off needs nothing.
    expect(validateSettingsUpdate({ spamcheck_enabled: false }, current(), options).ok).toBe(true);
  });

  it('refuses blanking a companion while its flag is on', () => {
    expect(validateSettingsUpdate({ terms: '' }, current({ enforce_terms: true, terms: 'x' }), options)).toEqual({
      ok: false,
      errors: { terms: ["can't be blank"] },
    });
    expect(validateSettingsUpdate({ spamcheck_api_key: '' }, current({ spamcheck_enabled: true }, ['spamcheck_api_key']), options)).toEqual({
      ok: false,
      errors: { spamcheck_api_key: ["can't be blank"] },
    });
  });

  it('turns delayed deletion off with a period of 0 and keeps project deletion under group deletion', () => {
    expect(validateSettingsUpdate({ deletion_adjourned_period: 0 }, current(), options)).toEqual({
      ok: true,
      changes: { delayed_project_deletion: false, delayed_group_deletion: false },
    });
    expect(validateSettingsUpdate({ delayed_group_deletion: false }, current({ delayed_project_deletion: true }), options)).toEqual({
      ok: true,
      changes: { delayed_group_deletion: false, delayed_project_deletion: false },
    });
    expect(validateSettingsUpdate({ delayed_project_deletion: true }, current({ delayed_group_deletion: false }), options).ok).toBe(false);
  });

  it('accepts the authorization timeout on its 0.001 grid only', () => {
    expect(validateSettingsUpdate({ external_authorization_service_timeout: 0.001 }, current(), options).ok).toBe(true);
    expect(validateSettingsUpdate({ external_authorization_service_timeout: '9.999' }, current(), options).ok).toBe(true);
    expect(validateSettingsUpdate({ external_authorization_service_timeout: 0.0015 }, current(), options)).toEqual({
      ok: false,
      errors: { external_authorization_service_timeout: ['must be a multiple of 0.001'] },
    });
  });

  it('reads restricted visibility levels as names or numbers', () => {
    expect(validateSettingsUpdate({ restricted_visibility_levels: ['20', 'internal'] }, current(), options)).toEqual({
      ok: true,
      changes: { restricted_visibility_levels: ['public', 'internal'] },
    });
  });

  it('reads "nil" as both git protocols', () => {
    expect(validateSettingsUpdate({ enabled_git_access_protocol: 'nil' }, current({ enabled_git_access_protocol: 'ssh' }), options)).toEqual({
      ok: true,
      changes: { enabled_git_access_protocol: null },
    });
  });
});
