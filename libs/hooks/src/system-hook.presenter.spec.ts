import { SystemHookEntity } from './entities/system-hook.entity';
import { presentSystemHook } from './system-hook.presenter';

const hook = (over: Partial<SystemHookEntity>): SystemHookEntity =>
  Object.assign(new SystemHookEntity(), {
    id: 1,
    url: 'http://example.com/',
    encryptedToken: 'secret',
    pushEvents: false,
    tagPushEvents: false,
    mergeRequestsEvents: false,
    repositoryUpdateEvents: true,
    enableSslVerification: true,
    alertStatus: 'executable',
    disabledUntil: null,
    recentFailures: 0,
    backoffCount: 0,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...over,
  });

describe(presentSystemHook.name, () => {
  const now = new Date('2026-01-01T12:00:00Z');

  it('never shows the token', () => {
    expect(JSON.stringify(presentSystemHook(hook({}), now))).not.toContain('secret');
  });

  it('shows a running temporary disabling, and a finished one as executable', () => {
    const until = new Date(now.getTime() + 60_000);
    expect(presentSystemHook(hook({ alertStatus: 'temporarily_disabled', disabledUntil: until, recentFailures: 4 }), now)).toMatchObject({
      alert_status: 'temporarily_disabled',
      disabled_until: until.toISOString(),
      recent_failures: 4,
    });
    expect(presentSystemHook(hook({ alertStatus: 'temporarily_disabled', disabledUntil: new Date(now.getTime() - 1), recentFailures: 4 }), now)).toMatchObject({
      alert_status: 'executable',
      disabled_until: null,
      recent_failures: 4,
    });
    expect(presentSystemHook(hook({ alertStatus: 'disabled', recentFailures: 40 }), now)).toMatchObject({ alert_status: 'disabled', disabled_until: null });
  });
});
