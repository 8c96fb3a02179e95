import { STUCK_REASONS, stuckReason } from './stuck';

describe(stuckReason.name, () => {
  const build = (over: Partial<{ status: string; type: string; tagList: string[] }> = {}) => ({
    status: 'pending',
    type: 'build',
    tagList: [] as string[],
    ...over,
  });
  const nothing = { online: false, available: false };

  it('is not stuck when an online runner can take the job', () => {
    expect(stuckReason(build(), { online: true, available: true })).toBeNull();
    expect(stuckReason(build({ tagList: ['gpu'] }), { online: true, available: true })).toBeNull();
  });

  it('is not stuck unless it is a pending build', () => {
    for (const status of ['created', 'running', 'success', 'failed', 'canceled', 'manual', 'scheduled', 'skipped']) {
      expect(stuckReason(build({ status }), nothing)).toBeNull();
    }
    expect(stuckReason(build({ type: 'bridge' }), nothing)).toBeNull();
    expect(stuckReason(build(), undefined)).toBeNull();
  });

  it('names the tags of a tagged job, whatever runners the project has', () => {
    const expected =
      "This job is stuck because you don't have any active runners online or available with any of these tags assigned to them: gpu, docker runner";
    expect(stuckReason(build({ tagList: ['gpu', 'docker runner'] }), nothing)).toBe(expected);
    expect(stuckReason(build({ tagList: ['gpu', 'docker runner'] }), { online: false, available: true })).toBe(expected);
  });

  it('tells an untagged job whose project has only offline (or unsuitable) runners from one with no active runner', () => {
    expect(stuckReason(build(), { online: false, available: true })).toBe(STUCK_REASONS.offline);
    expect(stuckReason(build(), nothing)).toBe(STUCK_REASONS.none);
    expect(STUCK_REASONS.offline).toBe("This job is stuck because the project doesn't have any runners online assigned to it.");
    expect(STUCK_REASONS.none).toBe("This job is stuck because you don't have any active runners that can run this job.");
  });
});
