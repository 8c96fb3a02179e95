import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, ErrorCode } from '@app/api';
import type { FixedWindowRateLimiter, RateLimitVerdict } from '@app/queue';
import { ApplicationSettings, StaticSettingsReader } from '@app/settings';
import { ProtectedPath, ProtectedPathThrottleGuard } from './protected-path-throttle.guard';

class Routes {
  @ProtectedPath()
  always(): void {}

  @ProtectedPath((request) => (request.body as { grant_type?: string }).grant_type === 'password')
  passwordOnly(): void {}

  plain(): void {}
}

const contextOf = (handler: keyof Routes, request: { ip: string; body?: unknown }): ExecutionContext =>
  ({ getHandler: () => Routes.prototype[handler], switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

describe(ProtectedPathThrottleGuard.name, () => {
  const settings = (overrides = {}) => new StaticSettingsReader(ApplicationSettings.defaults({ host: 'localhost', sessionExpireDelayMinutes: 10 }, overrides));
  const limiterAnswering = (hit: () => Promise<RateLimitVerdict>) => {
    const calls: unknown[][] = [];
    const limiter = { hit: (...args: unknown[]) => (calls.push(args), hit()) } as unknown as FixedWindowRateLimiter;
    return { limiter, calls };
  };

  it("counts the requests of a protected route per IP with GitLab's defaults (10 per 60 s)", async () => {
    const { limiter, calls } = limiterAnswering(() => Promise.resolve({ allowed: true, count: 1, retryAfterSeconds: 60 }));
    const sut = new ProtectedPathThrottleGuard(new Reflector(), limiter, settings());
    await expect(sut.canActivate(contextOf('always', { ip: '192.0.2.7' }))).resolves.toBe(true);
    expect(calls).toEqual([[['throttle', 'protected_paths', '192.0.2.7'], 10, 60]]);
  });

  it('refuses beyond the limit with 429 and the seconds to the end of the window', async () => {
    const { limiter } = limiterAnswering(() => Promise.resolve({ allowed: false, count: 11, retryAfterSeconds: 17 }));
    const sut = new ProtectedPathThrottleGuard(new Reflector(), limiter, settings());
    const refusal = await sut.canActivate(contextOf('always', { ip: '192.0.2.7' })).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).code).toBe(ErrorCode.RATE_LIMITED);
    expect((refusal as DomainError).details.retryAfterSeconds).toBe(17);
  });

  it("counts only what the route's filter selects, nothing on other routes or when turned off", async () => {
    const { limiter, calls } = limiterAnswering(() => Promise.resolve({ allowed: false, count: 11, retryAfterSeconds: 1 }));
    const sut = new ProtectedPathThrottleGuard(new Reflector(), limiter, settings());
    await expect(sut.canActivate(contextOf('passwordOnly', { ip: '192.0.2.7', body: { grant_type: 'refresh_token' } }))).resolves.toBe(true);
    await expect(sut.canActivate(contextOf('plain', { ip: '192.0.2.7' }))).resolves.toBe(true);
    const off = new ProtectedPathThrottleGuard(new Reflector(), limiter, settings({ throttle_protected_paths_enabled: false }));
    await expect(off.canActivate(contextOf('always', { ip: '192.0.2.7' }))).resolves.toBe(true);
    expect(calls).toHaveLength(0);
    await expect(sut.canActivate(contextOf('passwordOnly', { ip: '192.0.2.7', body: { grant_type: 'password' } }))).rejects.toBeInstanceOf(DomainError);
  });

  it('lets the request through when Redis fails or does not answer', async () => {
    const failing = limiterAnswering(() => Promise.reject(new Error('connect ECONNREFUSED')));
    await expect(
      new ProtectedPathThrottleGuard(new Reflector(), failing.limiter, settings()).canActivate(contextOf('always', { ip: '192.0.2.7' })),
    ).resolves.toBe(true);
    const silent = limiterAnswering(() => new Promise<RateLimitVerdict>(() => undefined));
    const started = Date.now();
    await expect(
      new ProtectedPathThrottleGuard(new Reflector(), silent.limiter, settings()).canActivate(contextOf('always', { ip: '192.0.2.7' })),
    ).resolves.toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
