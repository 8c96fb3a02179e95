import { cloneUrl, GitClient } from './support/git-client';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const CONFIG = `
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "api"
deploy:
  script: [deploy]
`;

const NO_ACTIVE_RUNNER = "This job is stuck because you don't have any active runners that can run this job.";

/** Runners' `access_level`: a `ref_protected` runner takes only the jobs of protected refs, and jobs say whether their ref is. */
describe('CI protected runners', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string };

  const call = (method: string, path: string, body?: unknown) => api(gw.baseUrl, method, `/api/v4${path}`, { token: owner.token, body });
  const poll = (token: string) => api(gw.baseUrl, 'POST', '/api/v4/jobs/request', { body: { token, info: { name: 'gitlab-runner', version: '17.5.0' } } });
  const createPipeline = async (ref: string): Promise<number> => {
    const created = await call('POST', `/projects/${project.id}/pipeline`, { ref });
    if (created.status !== 201) throw new Error(created.text);
    return created.body.id;
  };
  const onlyJobOf = async (pipelineId: number): Promise<{ id: number; status: string; stuck: boolean; stuck_reason: string | null }> => {
    const listed = await call('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`);
    expect(listed.body).toHaveLength(1);
    return listed.body[0];
  };
  const variable = (payload: { variables: Array<{ key: string; value: string }> }, key: string): string | undefined =>
    payload.variables.find((v) => v.key === key)?.value;

  beforeAll(async () => {
    gw = await startTestGateway('ci-protected-runners', { CI_LONG_POLL_SECONDS: '1' });
    git = new GitClient();
    owner = await createUserWithToken(gw, 'protectedowner');
    const created = await call('POST', '/projects', { name: 'Deploys', initialize_with_readme: true });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    const work = git.dir('deploys');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
    await git.commitFile(work, '.gitlab-ci.yml', CONFIG, 'CI');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main', 'HEAD:refs/heads/feature', 'HEAD:refs/heads/release/1.0'], { cwd: work });
    // `main` is protected as the project's default branch (its rule is made with the branch); `release/*` by a wildcard rule; `feature` is not.
    const rule = await call('POST', `/projects/${project.id}/protected_branches`, { name: 'release/*' });
    if (rule.status !== 201) throw new Error(rule.text);
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('gives a ref_protected runner only the jobs of protected branches, and the jobs tell whether their ref is protected', async () => {
    const protectedNames = ((await call('GET', `/projects/${project.id}/protected_branches`)).body as Array<{ name: string }>).map((b) => b.name).sort();
    expect(protectedNames).toEqual(['main', 'release/*']);
    const created = await call('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, access_level: 'ref_protected' });
    expect(created.status).toBe(201);
    const runner: { id: number; token: string } = created.body;
    expect((await call('GET', `/runners/${runner.id}`)).body).toMatchObject({ access_level: 'ref_protected' });

    // A job of an unprotected branch: the protected runner does not take it, and no other runner can.
    const onFeature = await createPipeline('feature');
    expect((await poll(runner.token)).status).toBe(204);
    expect(await onlyJobOf(onFeature)).toMatchObject({ status: 'pending', stuck: true, stuck_reason: NO_ACTIVE_RUNNER });

    // The default branch and a branch under a wildcard rule are protected: it takes their jobs (oldest first).
    const onMain = await createPipeline('main');
    const onRelease = await createPipeline('release/1.0');
    for (const [pipelineId, ref] of [
      [onMain, 'main'],
      [onRelease, 'release/1.0'],
    ] as const) {
      const taken = await poll(runner.token);
      expect(taken.status).toBe(201);
      expect(taken.body).toMatchObject({ job_info: { name: 'deploy' }, git_info: { ref, protected: true } });
      expect(variable(taken.body, 'CI_COMMIT_REF_PROTECTED')).toBe('true');
      expect((await onlyJobOf(pipelineId)).status).toBe('running');
      expect((await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${taken.body.id}`, { body: { token: taken.body.token, state: 'success' } })).status).toBe(200);
    }
    expect((await poll(runner.token)).status).toBe(204);
    expect((await onlyJobOf(onFeature)).status).toBe('pending');

    // Not protected any more, it takes the unprotected branch's job, which says so.
    expect((await call('PUT', `/runners/${runner.id}`, { access_level: 'not_protected' })).status).toBe(200);
    const taken = await poll(runner.token);
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ git_info: { ref: 'feature', protected: false } });
    expect(variable(taken.body, 'CI_COMMIT_REF_PROTECTED')).toBe('false');
    expect((await onlyJobOf(onFeature)).id).toBe(taken.body.id);
  });

  it('keeps a retried job protected, so that a protected runner takes the new attempt', async () => {
    const created = await call('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, access_level: 'ref_protected' });
    const runner: { token: string } = created.body;
    const pipelineId = await createPipeline('main');
    const taken = await poll(runner.token);
    expect(taken.status).toBe(201);
    expect(
      (await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${taken.body.id}`, { body: { token: taken.body.token, state: 'failed', failure_reason: 'script_failure' } }))
        .status,
    ).toBe(200);
    const retried = await call('POST', `/projects/${project.id}/jobs/${taken.body.id}/retry`);
    expect(retried.status).toBe(201);
    const again = await poll(runner.token);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: retried.body.id, git_info: { ref: 'main', protected: true } });
    expect((await call('GET', `/projects/${project.id}/pipelines/${pipelineId}`)).body.status).toBe('running');
  });
});
