import { Gitlab } from '@gitbeaker/rest';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/** Approvals are PREMIUM: 403 on `free` (merges are not gated), and the real GitLab client on `ultimate`. */
describe('Merge request approvals by tier', () => {
  describe('free', () => {
    let gw: TestGateway;
    let projectId: number;
    let iid: number;
    const root = () => ({ token: gw.rootToken });

    beforeAll(async () => {
      gw = await startTestGateway('approvals-free', { SERVICE_TIER: 'free' });
      projectId = (await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'free-app', initialize_with_readme: true } })).body.id;
      await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/repository/branches`, { ...root(), body: { branch: 'topic', ref: 'main' } });
      iid = (
        await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/merge_requests`, {
          ...root(),
          body: { title: 'T', source_branch: 'topic', target_branch: 'main' },
        })
      ).body.iid;
    }, 60_000);
    afterAll(() => gw?.close());

    it.each([
      ['GET', 'approvals'],
      ['POST', 'approvals'],
      ['GET', 'approval_rules'],
      ['POST', 'approval_rules'],
      ['GET', 'approval_rules/1'],
      ['PUT', 'approval_rules/1'],
      ['DELETE', 'approval_rules/1'],
      ['GET', 'merge_requests/1/approvals'],
      ['POST', 'merge_requests/1/approvals'],
      ['GET', 'merge_requests/1/approval_state'],
      ['GET', 'merge_requests/1/approval_rules'],
      ['POST', 'merge_requests/1/approval_rules'],
      ['PUT', 'merge_requests/1/approval_rules/1'],
      ['POST', 'merge_requests/1/approve'],
      ['POST', 'merge_requests/1/unapprove'],
      ['PUT', 'merge_requests/1/reset_approvals'],
    ])('%s /projects/:id/%s answers 403 (PREMIUM)', async (method, path) => {
      const res = await api(gw.baseUrl, method, `/api/v4/projects/${projectId}/${path}`, {
        ...root(),
        body: method === 'GET' ? undefined : { name: 'r', approvals_required: 1 },
      });
      expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden - This feature requires the PREMIUM tier' } });
    });

    it('does not gate merges', async () => {
      const shown = await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/merge_requests/${iid}`, root());
      expect(shown.body.detailed_merge_status).toBe('mergeable');
      const merged = await api(gw.baseUrl, 'PUT', `/api/v4/projects/${projectId}/merge_requests/${iid}/merge`, root());
      expect(merged).toMatchObject({ status: 200, body: { state: 'merged' } });
    });
  });

  describe('ultimate, with @gitbeaker/rest', () => {
    let gw: TestGateway;
    let root: InstanceType<typeof Gitlab>;
    let reviewer: InstanceType<typeof Gitlab>;
    let reviewerId: number;
    let projectId: number;

    beforeAll(async () => {
      gw = await startTestGateway('approvals-gitbeaker');
      root = new Gitlab({ host: gw.baseUrl, token: gw.rootToken, rateLimits: {} });
      const user = await createUserWithToken(gw, 'rita');
      reviewerId = user.id;
      reviewer = new Gitlab({ host: gw.baseUrl, token: user.token, rateLimits: {} });
      projectId = (await root.Projects.create({ name: 'client-app', initializeWithReadme: true })).id as number;
      await addProjectMember(gw, projectId, reviewerId, 30);
      await root.Branches.create(projectId, 'feature', 'main');
    }, 60_000);
    afterAll(() => gw?.close());

    it('configures approvals and project rules', async () => {
      const configuration = await root.MergeRequestApprovals.editConfiguration(projectId, {
        resetApprovalsOnPush: false,
        mergeRequestsAuthorApproval: false,
      } as never);
      expect(configuration).toMatchObject({ reset_approvals_on_push: false, merge_requests_author_approval: false });
      expect(await root.MergeRequestApprovals.showConfiguration(projectId)).toMatchObject({ reset_approvals_on_push: false, approvals_before_merge: 0 });

      const rule = await root.MergeRequestApprovals.createApprovalRule(projectId, 'Reviewers', 1, { userIds: [reviewerId] });
      expect(rule).toMatchObject({ name: 'Reviewers', approvals_required: 1, rule_type: 'regular' });
      expect((await root.MergeRequestApprovals.allApprovalRules(projectId)).map((r) => r.name)).toEqual(['Reviewers']);
      expect(await root.MergeRequestApprovals.showApprovalRule(projectId, rule.id as number)).toMatchObject({
        id: rule.id,
        users: [expect.objectContaining({ id: reviewerId })],
      });
      const edited = await root.MergeRequestApprovals.editApprovalRule(projectId, rule.id as number, 'Reviewers', 1, { userIds: [reviewerId] });
      expect(edited.users).toHaveLength(1);
      const extra = await root.MergeRequestApprovals.createApprovalRule(projectId, 'Extra', 0);
      await root.MergeRequestApprovals.removeApprovalRule(projectId, extra.id as number);
      expect((await root.MergeRequestApprovals.allApprovalRules(projectId)).map((r) => r.name)).toEqual(['Reviewers']);
    });

    it('gates the merge until the merge request is approved, through the client', async () => {
      const mr = await root.MergeRequests.create(projectId, 'feature', 'main', 'Feature');
      const iid = mr.iid as number;
      expect((await root.MergeRequestApprovals.allApprovalRules(projectId, { mergerequestIId: iid })).map((r) => r.name)).toEqual(['Reviewers']);
      const extra = await root.MergeRequestApprovals.createApprovalRule(projectId, 'Optional', 0, { mergerequestIId: iid });
      await root.MergeRequestApprovals.editApprovalRule(projectId, extra.id as number, 'Optional', 0, { mergerequestIId: iid });
      await root.MergeRequestApprovals.removeApprovalRule(projectId, extra.id as number, { mergerequestIId: iid });
      const state = await root.MergeRequestApprovals.showApprovalState(projectId, iid);
      expect(state).toMatchObject({ approval_rules_overwritten: true, rules: [expect.objectContaining({ name: 'Reviewers', approved: false })] });

      await expect(root.MergeRequests.accept(projectId, iid)).rejects.toMatchObject({ cause: { response: { status: 405 } } });
      await expect(root.MergeRequestApprovals.approve(projectId, iid)).rejects.toMatchObject({ cause: { response: { status: 403 } } });
      const approved = await reviewer.MergeRequestApprovals.approve(projectId, iid, { sha: mr.sha as string });
      expect(approved).toMatchObject({ approved: true, approvals_left: 0 });
      await reviewer.MergeRequestApprovals.unapprove(projectId, iid);
      expect(await root.MergeRequestApprovals.showConfiguration(projectId, { mergerequestIId: iid })).toMatchObject({ approved: false, approvals_left: 1 });
      await reviewer.MergeRequestApprovals.approve(projectId, iid);
      expect(await root.MergeRequests.accept(projectId, iid)).toMatchObject({ state: 'merged' });
    });
  });
});
