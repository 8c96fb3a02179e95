import { SettingsEncryption } from '@app/secrets';
import { definitionOf, REQUIRES_RULES, SETTING_NAMES, SettingDefinition } from '@app/settings';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/**
 * A value of `name` different from its default, as sent in JSON (`send`) and as the record
 * returns it (`expect`, default: the same).
 */
function sampleOf(name: string, definition: SettingDefinition, host: string): { send: unknown; expect?: unknown } {
  const special: Record<string, { send: unknown; expect?: unknown }> = {
    abuse_notification_email: { send: 'abuse@example.com' },
    archive_builds_in_human_readable: { send: '2 days' },
    asset_proxy_allowlist: { send: ['assets.example.com', '*.cdn.example.com'], expect: ['assets.example.com', '*.cdn.example.com', host] },
    commit_email_hostname: { send: 'noreply.example.org' },
    default_artifacts_expire_in: { send: '7 days' },
    default_branch_name: { send: 'trunk' },
    enabled_git_access_protocol: { send: 'ssh' },
    first_day_of_week: { send: 1 },
    default_branch_protection: { send: 1 },
    default_project_creation: { send: 1 },
    geo_node_allowed_ips: { send: '10.0.0.0/8, 192.168.1.1' },
    personal_access_token_prefix: { send: 'corp-' },
    searchengine_url: { send: 'https://search-1.example.com,https://search-2.example.com' },
    restricted_visibility_levels: { send: ['public'] },
    import_sources: { send: ['github', 'git'] },
    repository_storages_weighted: { send: { default: 50 } },
    external_authorization_service_timeout: { send: 2.5 },
    polling_interval_multiplier: { send: 1.5 },
    deletion_adjourned_period: { send: 30 },
    repostorage_timeout_medium: { send: 20 },
    housekeeping_full_repack_period: { send: 60 },
    housekeeping_incremental_repack_period: { send: 5 },
    delayed_project_deletion: { send: true },
    session_expire_delay: { send: 600 },
    default_project_visibility: { send: 'internal' },
    default_group_visibility: { send: 'internal' },
    default_snippet_visibility: { send: 'internal' },
    repostorage_timeout_fast: { send: 5 },
    housekeeping_gc_period: { send: 300 },
  };
  if (special[name]) return special[name];
  switch (definition.type) {
    case 'boolean':
      return { send: definition.default !== true };
    case 'integer':
      return { send: Math.min(definition.max ?? 1_000_000, Math.max(definition.min ?? 0, 1) + 41) };
    case 'float':
      return { send: 0.25 };
    case 'integer_array':
      return { send: [3, 5] };
    case 'string_array':
      return { send: ['example.com', '*.example.org'] };
    default:
      return { send: definition.format === 'url' ? `https://${name.replace(/_/g, '-')}.example.com/path` : `value of ${name}` };
  }
}

describe('Application settings', () => {
  let gw: TestGateway;
  let free: TestGateway;
  let userToken: string;
  let host: string;

  const get = (target = gw) => api(target.baseUrl, 'GET', '/api/v4/application/settings', { token: target.rootToken });
  const put = (body: Record<string, unknown>, target = gw) => api(target.baseUrl, 'PUT', '/api/v4/application/settings', { token: target.rootToken, body });

  beforeAll(async () => {
    // A fixed external URL: host-derived defaults (commit e-mail host, asset proxy allowlist) are known from boot.
    const external = { EXTERNAL_URL: 'https://git.example.com' };
    [gw, free] = await Promise.all([startTestGateway('settings', external), startTestGateway('settings_free', { ...external, SERVICE_TIER: 'free' })]);
    host = new URL(gw.config.http.externalUrl).hostname;
    const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      token: gw.rootToken,
      body: { username: 'plain', name: 'Plain', email: 'plain@example.com', password: 'secret-password-1' },
    });
    const pat = await api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/personal_access_tokens`, {
      token: gw.rootToken,
      body: { name: 'e2e', scopes: ['api'] },
    });
    userToken = pat.body.token;
  });
  afterAll(async () => {
    await Promise.all([gw?.close(), free?.close()]);
  });

  describe('access', () => {
    it('answers 401 without credentials and 403 to a non-administrator, for reads and writes', async () => {
      expect(await api(gw.baseUrl, 'GET', '/api/v4/application/settings')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect(await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { body: { signup_enabled: false } })).toMatchObject({ status: 401 });
      expect(await api(gw.baseUrl, 'GET', '/api/v4/application/settings', { token: userToken })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      });
      expect(await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { token: userToken, body: { signup_enabled: false } })).toMatchObject({
        status: 403,
      });
      expect((await get()).body.signup_enabled).toBe(true);
    });
  });

  describe('the record', () => {
    it('lists id, timestamps and every setting with GitLab defaults; secrets never appear', async () => {
      const res = await get();
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: 1,
        default_projects_limit: 100000,
        default_branch_protection: 2,
        default_project_visibility: 'private',
        default_group_visibility: 'private',
        default_snippet_visibility: 'private',
        default_branch_name: null,
        domain_allowlist: null,
        domain_denylist: [],
        first_day_of_week: 0,
        max_export_size: 0,
        max_import_size: 0,
        session_expire_delay: 10080,
        external_authorization_service_timeout: 0.5,
        housekeeping_bitmaps_enabled: true,
        delayed_group_deletion: true,
        delayed_project_deletion: false,
        deletion_adjourned_period: 7,
        geo_node_allowed_ips: '0.0.0.0/0, ::/0',
        asset_proxy_allowlist: [host],
        asset_proxy_whitelist: [host],
        commit_email_hostname: `users.noreply.${host}`,
        repository_storages_weighted: { default: 100 },
        personal_access_token_prefix: 'svcpat-',
        admin_notification_email: null,
        abuse_notification_email: null,
      });
      expect(Date.parse(res.body.created_at)).not.toBeNaN();
      expect(Date.parse(res.body.updated_at)).not.toBeNaN();
      for (const name of SETTING_NAMES) {
        if (definitionOf(name)!.secret) expect(res.body).not.toHaveProperty(name);
        else expect(res.body).toHaveProperty(name);
      }
      expect(res.body).not.toHaveProperty('repository_storages');
    });

    it.each(SETTING_NAMES.filter((name) => !definitionOf(name)!.secret && name !== 'housekeeping_bitmaps_enabled'))('round-trips %s', async (name) => {
      const definition = definitionOf(name)!;
      const sample = sampleOf(name, definition, host);
      const body: Record<string, unknown> = { [name]: sample.send };
      // A flag turned on needs its companions in the same request.
      for (const rule of REQUIRES_RULES.filter((r) => r.flag === name && sample.send === true)) {
        for (const companion of rule.companions) {
          const companionDefinition = definitionOf(companion)!;
          body[companion] = companionDefinition.type === 'boolean' ? true : (sampleOf(companion, companionDefinition, host).send as unknown);
        }
      }
      if (name === 'delayed_project_deletion') body.delayed_group_deletion = true;
      if (name === 'external_auth_client_cert') body.external_auth_client_key = 'client key';
      const res = await put(body);
      expect(res.status).toBe(200);
      const expected = sample.expect ?? sample.send;
      expect(res.body[name]).toEqual(expected);
      expect((await get()).body[name]).toEqual(expected);
      expect(res.body.repository_storages).toEqual(expect.any(Array));
    });

    it('accepts form bodies and query strings, with arrays as name[]= and comma lists', async () => {
      const encoded = new URLSearchParams([
        ['import_sources[]', 'gitea'],
        ['import_sources[]', 'manifest'],
        ['default_projects_limit', '77'],
        ['user_oauth_applications', 'false'],
        ['external_authorization_service_timeout', '0.125'],
        ['repository_storages_weighted[default]', '25'],
      ]).toString();
      const viaForm = await fetch(`${gw.baseUrl}/api/v4/application/settings`, {
        method: 'PUT',
        headers: { 'PRIVATE-TOKEN': gw.rootToken, 'content-type': 'application/x-www-form-urlencoded' },
        body: encoded,
      });
      expect(viaForm.status).toBe(200);
      expect(await viaForm.json()).toMatchObject({
        import_sources: ['gitea', 'manifest'],
        default_projects_limit: 77,
        user_oauth_applications: false,
        external_authorization_service_timeout: 0.125,
        repository_storages_weighted: { default: 25 },
      });
      const viaQuery = await api(gw.baseUrl, 'PUT', '/api/v4/application/settings?domain_allowlist=a.example.com,b.example.com&signup_enabled=false', {
        token: gw.rootToken,
      });
      expect(viaQuery.status).toBe(200);
      expect(viaQuery.body).toMatchObject({ domain_allowlist: ['a.example.com', 'b.example.com'], signup_enabled: false });
      await put({ domain_allowlist: null, signup_enabled: true });
    });

    it('ignores unknown and read-only parameters', async () => {
      const before = (await get()).body;
      const res = await put({ no_such_setting: 1, id: 99, created_at: '2001-01-01T00:00:00Z', repository_storages: ['x'] });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(1);
      expect(res.body).not.toHaveProperty('no_such_setting');
      expect(res.body.created_at).toBe(before.created_at);
    });
  });

  describe('validation', () => {
    it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
      ['a boolean', { signup_enabled: 'maybe' }, { signup_enabled: ['is invalid'] }],
      ['an integer', { default_projects_limit: 'many' }, { default_projects_limit: ['is invalid'] }],
      ['a negative limit', { default_projects_limit: -1 }, { default_projects_limit: ['must be greater than or equal to 0'] }],
      ['a visibility', { default_project_visibility: 'secret' }, { default_project_visibility: ['does not have a valid value'] }],
      ['a group visibility', { default_group_visibility: 'everyone' }, { default_group_visibility: ['does not have a valid value'] }],
      ['a snippet visibility', { default_snippet_visibility: 1 }, { default_snippet_visibility: ['does not have a valid value'] }],
      ['the git protocol', { enabled_git_access_protocol: 'ftp' }, { enabled_git_access_protocol: ['does not have a valid value'] }],
      ['the first day of week', { first_day_of_week: 3 }, { first_day_of_week: ['does not have a valid value'] }],
      ['branch protection', { default_branch_protection: 3 }, { default_branch_protection: ['does not have a valid value'] }],
      ['project creation', { default_project_creation: -1 }, { default_project_creation: ['does not have a valid value'] }],
      ['the deletion period (high)', { deletion_adjourned_period: 91 }, { deletion_adjourned_period: ['must be less than or equal to 90'] }],
      ['the deletion period (low)', { deletion_adjourned_period: -2 }, { deletion_adjourned_period: ['must be greater than or equal to 1'] }],
      [
        'the authorization timeout (low)',
        { external_authorization_service_timeout: 0.0001 },
        { external_authorization_service_timeout: ['must be greater than or equal to 0.001'] },
      ],
      [
        'the authorization timeout (high)',
        { external_authorization_service_timeout: 10.5 },
        { external_authorization_service_timeout: ['must be less than or equal to 10'] },
      ],
      [
        'the authorization timeout step',
        { external_authorization_service_timeout: 1.0005 },
        { external_authorization_service_timeout: ['must be a multiple of 0.001'] },
      ],
      ['a key restriction', { ed25519_key_restriction: -2 }, { ed25519_key_restriction: ['must be greater than or equal to -1'] }],
      ['an archive duration below a day', { archive_builds_in_human_readable: '3 hours' }, { archive_builds_in_human_readable: ['must be at least 1 day'] }],
      [
        'an archive duration that is not one',
        { archive_builds_in_human_readable: 'soonish' },
        { archive_builds_in_human_readable: ['is not a valid duration'] },
      ],
      ['an e-mail address', { abuse_notification_email: 'nobody' }, { abuse_notification_email: ['is invalid'] }],
      ['a URL', { home_page_url: 'not a url' }, { home_page_url: ['must be a valid URL'] }],
      [
        'a token prefix',
        { personal_access_token_prefix: 'no spaces!' },
        { personal_access_token_prefix: ["can contain only letters of the Base64 alphabet (RFC4648) with the addition of '@', ':' and '.'"] },
      ],
      ['a token prefix length', { personal_access_token_prefix: 'x'.repeat(21) }, { personal_access_token_prefix: ['is too long (maximum is 20 characters)'] }],
      ['an import source', { import_sources: ['github', 'svn'] }, { import_sources: ['does not have a valid value'] }],
      ['geo IPs', { geo_node_allowed_ips: '10.0.0.0/99' }, { geo_node_allowed_ips: ['must be a comma-separated list of IP addresses or CIDR ranges'] }],
      ['storage weights', { repository_storages_weighted: { default: 101 } }, { repository_storages_weighted: ['weights must be between 0 and 100'] }],
      ['a non-null setting set to null', { session_expire_delay: null }, { session_expire_delay: ["can't be blank"] }],
      [
        'housekeeping periods order',
        { housekeeping_incremental_repack_period: 100 },
        { housekeeping_full_repack_period: ['must be greater than or equal to housekeeping_incremental_repack_period (100)'] },
      ],
      ['the medium timeout', { repostorage_timeout_medium: 60 }, { repostorage_timeout_medium: ['must be lower than the default timeout'] }],
      [
        'a restricted default visibility',
        { default_project_visibility: 'public', restricted_visibility_levels: ['public'] },
        { default_project_visibility: ['cannot be set to a restricted visibility level'] },
      ],
      [
        'conflicting deprecated and current names',
        { admin_notification_email: 'a@example.com', abuse_notification_email: 'b@example.com' },
        { admin_notification_email: ['conflicts with abuse_notification_email; send only abuse_notification_email'] },
      ],
    ])('refuses %s with the property named', async (_, body, message) => {
      const before = (await get()).body;
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message });
      expect((await get()).body.updated_at).toBe(before.updated_at);
    });

    it('reports every failing property of one request', async () => {
      const res = await put({ signup_enabled: 'x', first_day_of_week: 2, home_page_url: 'nope' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.message).sort()).toEqual(['first_day_of_week', 'home_page_url', 'signup_enabled']);
    });

    it('clears an archive duration with an empty value (never) and normalizes durations', async () => {
      expect((await put({ archive_builds_in_human_readable: '1 week' })).body.archive_builds_in_human_readable).toBe('7 days');
      expect((await put({ archive_builds_in_human_readable: '' })).body.archive_builds_in_human_readable).toBeNull();
    });
  });

  describe('requires rules', () => {
    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ['spamcheck_enabled', { spamcheck_enabled: true }, { spamcheck_api_key: 'k-123' }],
      ['domain_denylist_enabled', { domain_denylist_enabled: true }, { domain_denylist: ['spam.example.com'] }],
      ['enforce_terms', { enforce_terms: true }, { terms: 'Be nice.' }],
      ['asset_proxy_enabled', { asset_proxy_enabled: true }, { asset_proxy_url: 'https://proxy.example.com' }],
      [
        'external_authorization_service_enabled',
        { external_authorization_service_enabled: true },
        {
          external_authorization_service_default_label: 'internal',
          external_authorization_service_timeout: 1,
          external_authorization_service_url: 'https://authz.example.com',
        },
      ],
      [
        'housekeeping_enabled',
        { housekeeping_enabled: true },
        { housekeeping_bitmaps_enabled: true, housekeeping_full_repack_period: 50, housekeeping_gc_period: 200, housekeeping_incremental_repack_period: 10 },
      ],
    ])('refuses %s without its companions, naming each, and accepts it with them', async (flag, on, companions) => {
      const refused = await put(on);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: Object.fromEntries(Object.keys(companions).map((c) => [c, [`is required when ${flag} is true`]])) });
      const partial = Object.keys(companions).length > 1 ? await put({ ...on, [Object.keys(companions)[0]]: Object.values(companions)[0] }) : null;
      if (partial) {
        expect(partial.status).toBe(400);
        expect(Object.keys(partial.body.message)).toEqual(Object.keys(companions).slice(1));
      }
      const accepted = await put({ ...on, ...companions });
      expect(accepted.status).toBe(200);
      expect(accepted.body[flag]).toBe(true);
      // Turned on, the companion cannot be blanked afterwards.
      const [first] = Object.keys(companions);
      if (!['housekeeping_bitmaps_enabled', 'spamcheck_api_key'].includes(first) && definitionOf(first)!.nullable) {
        const blanked = await put({ [first]: null });
        expect(blanked.status).toBe(400);
        expect(blanked.body).toEqual({ message: { [first]: ["can't be blank"] } });
      }
      await put({ [flag]: false });
    });

    it('refuses a client certificate without its key, and accepts one once the key is stored', async () => {
      expect((await put({ external_auth_client_cert: null, external_auth_client_key: '' })).status).toBe(200);
      const refused = await put({ external_auth_client_cert: '-----BEGIN CERTIFICATE-----' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { external_auth_client_key: ["can't be blank"] } });
      expect((await put({ external_auth_client_key: '-----BEGIN PRIVATE KEY-----' })).status).toBe(200);
      expect((await put({ external_auth_client_cert: '-----BEGIN CERTIFICATE-----' })).status).toBe(200);
      await put({ external_auth_client_cert: null });
    });

    it('keeps delayed project deletion under delayed group deletion, and a period of 0 turns both off', async () => {
      expect((await put({ delayed_group_deletion: true, delayed_project_deletion: true })).body).toMatchObject({
        delayed_group_deletion: true,
        delayed_project_deletion: true,
      });
      const refused = await put({ delayed_group_deletion: false, delayed_project_deletion: true });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { delayed_project_deletion: ['can be enabled only while delayed_group_deletion is true'] } });
      // Turning the group setting off turns the project setting off with it.
      expect((await put({ delayed_group_deletion: false })).body).toMatchObject({ delayed_group_deletion: false, delayed_project_deletion: false });
      expect((await put({ delayed_group_deletion: true, delayed_project_deletion: true, deletion_adjourned_period: 14 })).status).toBe(200);
      const zero = await put({ deletion_adjourned_period: 0 });
      expect(zero.status).toBe(200);
      expect(zero.body).toMatchObject({ delayed_group_deletion: false, delayed_project_deletion: false, deletion_adjourned_period: 14 });
    });
  });

  describe('aliases', () => {
    it('maps each deprecated name to its replacement, both ways', async () => {
      expect((await put({ admin_notification_email: 'old@example.com' })).body).toMatchObject({
        admin_notification_email: 'old@example.com',
        abuse_notification_email: 'old@example.com',
      });
      expect((await put({ abuse_notification_email: 'new@example.com' })).body).toMatchObject({
        admin_notification_email: 'new@example.com',
        abuse_notification_email: 'new@example.com',
      });
      expect((await put({ allow_local_requests_from_hooks_and_services: true })).body).toMatchObject({
        allow_local_requests_from_hooks_and_services: true,
        allow_local_requests_from_web_hooks_and_services: true,
      });
      expect((await put({ allow_local_requests_from_web_hooks_and_services: false })).body.allow_local_requests_from_hooks_and_services).toBe(false);
      const whitelist = await put({ asset_proxy_whitelist: 'one.example.com, two.example.com' });
      expect(whitelist.body.asset_proxy_allowlist).toEqual(['one.example.com', 'two.example.com', host]);
      expect(whitelist.body.asset_proxy_whitelist).toEqual(whitelist.body.asset_proxy_allowlist);
      expect((await put({ asset_proxy_allowlist: 'three.example.com' })).body.asset_proxy_whitelist).toEqual(['three.example.com', host]);
    });

    it('always reads housekeeping_bitmaps_enabled as true', async () => {
      const res = await put({ housekeeping_bitmaps_enabled: false });
      expect(res.status).toBe(200);
      expect(res.body.housekeeping_bitmaps_enabled).toBe(true);
      expect((await get()).body.housekeeping_bitmaps_enabled).toBe(true);
    });
  });

  describe('tiers', () => {
    const premiumKeys = SETTING_NAMES.filter((name) => definitionOf(name)!.tier === 'premium' && !definitionOf(name)!.secret);

    it('shows PREMIUM settings only on PREMIUM and above', async () => {
      const free_ = (await get(free)).body;
      const premium = (await get()).body;
      for (const key of premiumKeys) {
        expect(free_).not.toHaveProperty(key);
        expect(premium).toHaveProperty(key);
      }
      expect(free_).toHaveProperty('default_projects_limit');
    });

    it('ignores PREMIUM parameters below PREMIUM (neither stored nor refused)', async () => {
      const res = await put({ help_text: 'premium help', deletion_adjourned_period: 500, default_projects_limit: 5 }, free);
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('help_text');
      expect(res.body.default_projects_limit).toBe(5);
      const [row] = await free.dataSource.query('SELECT "values" FROM application_settings');
      expect(row.values).not.toHaveProperty('help_text');
    });
  });

  describe('secrets', () => {
    it('stores secrets encrypted, never returns them, and clears them with an empty value', async () => {
      const res = await put({
        spamcheck_api_key: 'spam-key-PLAINTEXT',
        asset_proxy_secret_key: 'proxy-PLAINTEXT',
        external_pipeline_validation_service_token: 'pipeline-PLAINTEXT',
      });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('PLAINTEXT');
      expect((await get()).text).not.toContain('PLAINTEXT');
      const [row] = await gw.dataSource.query('SELECT "values", encrypted_secrets FROM application_settings');
      expect(JSON.stringify(row)).not.toContain('PLAINTEXT');
      expect(row.encrypted_secrets.spamcheck_api_key).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+$/);
      const encryption = gw.app.get(SettingsEncryption);
      expect(encryption.decrypt('spamcheck_api_key', row.encrypted_secrets.spamcheck_api_key)).toBe('spam-key-PLAINTEXT');
      // Bound to its setting: the ciphertext of one does not decrypt as another.
      expect(() => encryption.decrypt('asset_proxy_secret_key', row.encrypted_secrets.spamcheck_api_key)).toThrow();

      expect((await put({ asset_proxy_secret_key: '' })).status).toBe(200);
      const [after] = await gw.dataSource.query('SELECT encrypted_secrets FROM application_settings');
      expect(after.encrypted_secrets).not.toHaveProperty('asset_proxy_secret_key');
      expect(after.encrypted_secrets).toHaveProperty('spamcheck_api_key');
    });
  });

  describe('audit', () => {
    it('records who changed which keys, secret values redacted, and nothing when nothing changed', async () => {
      const [{ max }] = await gw.dataSource.query('SELECT coalesce(max(seq), 0) AS max FROM outbox_events');
      expect((await put({ after_sign_up_text: 'Welcome!', searchengine_password: 'pw-PLAINTEXT' })).status).toBe(200);
      expect((await put({ after_sign_up_text: 'Welcome!' })).status).toBe(200);
      const rows: Array<{ payload: Record<string, any> }> = await gw.dataSource.query(
        `SELECT payload FROM outbox_events WHERE seq > $1 AND payload->>'type' = 'application_settings_update' ORDER BY seq`,
        [max],
      );
      expect(rows).toHaveLength(1);
      const [root] = await gw.dataSource.query("SELECT id FROM users WHERE username = 'root'");
      expect(rows[0].payload).toMatchObject({
        type: 'application_settings_update',
        actor: root.id,
        target: { type: 'application_settings', id: 1 },
        data: {
          changed_keys: ['after_sign_up_text', 'searchengine_password'],
          changes: { after_sign_up_text: { from: expect.anything(), to: 'Welcome!' }, searchengine_password: { from: null, to: '[REDACTED]' } },
        },
      });
      expect(JSON.stringify(rows[0].payload)).not.toContain('PLAINTEXT');
    });
  });
});
