import type { INestApplicationContext } from '@nestjs/common';
import { ApprovalsPushConsumer } from '@app/approvals';
import { EventsProjector } from '@app/events';
import { buildDomainEvent, type CataloguedEvent } from '@app/messaging';
import { eventually } from '@app/testing';
import { startProjector } from '../../apps/projector/src/main';
import { cloneUrl, GitClient } from './support/git-client';
import { HookReceiver, startHookReceiver } from './support/hook-receiver';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type User = { id: number; username: string; token: string };

/**
 * Merge request approvals (PREMIUM) over HTTP against the real stack: project configuration and
 * rules, merge request rules, approving, the merge gate, password and author/committer rules,
 * approvals reset by a real `git push`, events.
 */
describe('Merge request approvals (premium)', () => {
  let gw: TestGateway;
  let projector: INestApplicationContext;
  let git: GitClient;
  let receiver: HookReceiver;
  const users: Record<string, User> = {};
  let app: number;
  let reviewers: number;
  let core: number;
  let secret: number;
  let releaseBranchId: number;

  const as = (name: string) => ({ token: name === 'root' ? gw.rootToken : users[name].token });
  const call = (name: string, method: string, path: string, body?: unknown) => api(gw.baseUrl, method, `/api/v4${path}`, { ...as(name), body });
  const ok = async (name: string, method: string, path: string, body?: unknown): Promise<any> => {
    const res = await call(name, method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };

  beforeAll(async () => {
    gw = await startTestGateway('approvals', { SERVICE_TIER: 'premium' });
    projector = await startProjector(gw.config);
    await projector.get(EventsProjector).start();
    git = new GitClient();
    receiver = await startHookReceiver();
    await ok('root', 'POST', '/hooks', { url: `${receiver.url}/system`, merge_requests_events: true, push_events: false, repository_update_events: false });
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina']) users[name] = await createUserWithToken(gw, name);
    reviewers = (await ok('root', 'POST', '/groups', { name: 'Reviewers', path: 'reviewers', visibility: 'public' })).id;
    core = (await ok('root', 'POST', '/groups', { name: 'Core', path: 'core', parent_id: reviewers, visibility: 'public' })).id;
    secret = (await ok('root', 'POST', '/groups', { name: 'Secret', path: 'secret', visibility: 'private' })).id;
    await ok('root', 'POST', `/groups/${reviewers}/members`, { user_id: users.carol.id, access_level: 30 });
    await ok('root', 'POST', `/groups/${core}/members`, { user_id: users.frank.id, access_level: 30 });
    app = (await ok('root', 'POST', '/projects', { name: 'app', initialize_with_readme: true })).id;
    for (const [name, level] of [
      ['alice', 40],
      ['bob', 30],
      ['carol', 30],
      ['dave', 20],
      ['erin', 30],
      ['frank', 30],
    ] as const)
      await addProjectMember(gw, app, users[name].id, level);
    for (const branch of ['topic', 'release', 'other']) await ok('root', 'POST', `/projects/${app}/repository/branches`, { branch, ref: 'main' });
    releaseBranchId = (await ok('root', 'POST', `/projects/${app}/protected_branches`, { name: 'release' })).id;
  }, 120_000);
  afterAll(async () => {
    git?.cleanup();
    await receiver?.close();
    await projector?.close();
    await gw?.close();
  });

  describe('project configuration', () => {
    it("shows GitLab's defaults, changes every field, and is Maintainer-only to change", async () => {
      expect(await ok('dave', 'GET', `/projects/${app}/approvals`)).toEqual({
        approvers: [],
        approver_groups: [],
        approvals_before_merge: 0,
        reset_approvals_on_push: true,
        selective_code_owner_removals: false,
        disable_overriding_approvers_per_merge_request: false,
        merge_requests_author_approval: false,
        merge_requests_disable_committers_approval: false,
        require_password_to_approve: false,
      });
      const all = {
        approvals_before_merge: 2,
        reset_approvals_on_push: false,
        disable_overriding_approvers_per_merge_request: true,
        merge_requests_author_approval: true,
        merge_requests_disable_committers_approval: true,
        require_password_to_approve: true,
      };
      const changed = await call('alice', 'POST', `/projects/${app}/approvals`, all);
      expect(changed.status).toBe(201);
      expect(changed.body).toMatchObject(all);
      expect(await ok('bob', 'GET', `/projects/${app}/approvals`)).toMatchObject(all);
      // approvals_before_merge is the project attribute of the same name (the project record and PUT /projects/:id).
      expect((await ok('alice', 'GET', `/projects/${app}`)).approvals_before_merge).toBe(2);
      await ok('root', 'PUT', `/projects/${app}`, { approvals_before_merge: 3 });
      expect((await ok('bob', 'GET', `/projects/${app}/approvals`)).approvals_before_merge).toBe(3);
      const back = {
        approvals_before_merge: 0,
        reset_approvals_on_push: true,
        disable_overriding_approvers_per_merge_request: false,
        merge_requests_author_approval: false,
        merge_requests_disable_committers_approval: false,
        require_password_to_approve: false,
      };
      expect(await ok('alice', 'POST', `/projects/${app}/approvals`, back)).toMatchObject(back);
      expect((await call('bob', 'POST', `/projects/${app}/approvals`, { reset_approvals_on_push: false })).status).toBe(403);
      // A private project is not found for non-members; bad input is a 400.
      expect((await call('gina', 'GET', `/projects/${app}/approvals`)).status).toBe(404);
      expect((await call('alice', 'POST', `/projects/${app}/approvals`, { approvals_before_merge: -1 })).status).toBe(400);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${app}/approvals`)).status).toBe(401);
    });
  });

  describe('project rules', () => {
    it('creates regular rules with users (project members only) and groups, members of ancestor groups included', async () => {
      const created = await call('alice', 'POST', `/projects/${app}/approval_rules`, {
        name: 'Security',
        approvals_required: 1,
        user_ids: [users.bob.id, users.gina.id],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Security',
        rule_type: 'regular',
        report_type: null,
        approvals_required: 1,
        contains_hidden_groups: false,
        groups: [],
        protected_branches: [],
      });
      expect(created.body.users.map((u: { username: string }) => u.username)).toEqual(['bob']);
      expect(created.body.eligible_approvers.map((u: { username: string }) => u.username)).toEqual(['bob']);

      const parent = await ok('alice', 'POST', `/projects/${app}/approval_rules`, { name: 'Reviewers', approvals_required: 1, group_ids: [reviewers] });
      expect(parent.groups).toEqual([
        expect.objectContaining({
          id: reviewers,
          name: 'Reviewers',
          path: 'reviewers',
          full_path: 'reviewers',
          parent_id: null,
          visibility: 'public',
          ldap_cn: null,
          ldap_access: null,
        }),
      ]);
      // Members of subgroups are not approvers of the parent's rule (root: the group's creator, its Owner)...
      expect(parent.eligible_approvers.map((u: { username: string }) => u.username)).toEqual(['root', 'carol']);
      // ...members inherited from an ancestor are approvers of the subgroup's rule.
      const sub = await ok('alice', 'POST', `/projects/${app}/approval_rules`, { name: 'Core', approvals_required: 1, group_ids: [core] });
      expect(sub.eligible_approvers.map((u: { username: string }) => u.username).sort()).toEqual(['carol', 'frank', 'root']);
      expect((await call('alice', 'DELETE', `/projects/${app}/approval_rules/${sub.id}`)).status).toBe(204);
    });

    it('hides groups the caller cannot see (contains_hidden_groups) and keeps them on PUT unless removed', async () => {
      const rule = await ok('root', 'POST', `/projects/${app}/approval_rules`, { name: 'Hidden', approvals_required: 0, group_ids: [secret] });
      expect(rule.groups.map((g: { id: number }) => g.id)).toEqual([secret]);
      const seen = await ok('bob', 'GET', `/projects/${app}/approval_rules/${rule.id}`);
      expect(seen).toMatchObject({ groups: [], contains_hidden_groups: true });
      const kept = await ok('alice', 'PUT', `/projects/${app}/approval_rules/${rule.id}`, { name: 'Hidden', approvals_required: 0, group_ids: [reviewers] });
      expect(kept.contains_hidden_groups).toBe(true);
      const removed = await ok('alice', 'PUT', `/projects/${app}/approval_rules/${rule.id}`, {
        name: 'Hidden',
        approvals_required: 0,
        group_ids: [reviewers],
        remove_hidden_groups: true,
      });
      expect(removed.contains_hidden_groups).toBe(false);
      expect((await call('alice', 'DELETE', `/projects/${app}/approval_rules/${rule.id}`)).status).toBe(204);
      expect((await call('alice', 'GET', `/projects/${app}/approval_rules/${rule.id}`)).body).toEqual({ message: '404 Not found' });
    });

    it('any_approver (one per project), report_approver, protected branches, PUT replacing approvers, pagination', async () => {
      const any = await ok('alice', 'POST', `/projects/${app}/approval_rules`, {
        name: 'All Members',
        approvals_required: 0,
        rule_type: 'any_approver',
        user_ids: [users.bob.id],
      });
      expect(any).toMatchObject({ rule_type: 'any_approver', users: [], eligible_approvers: [] });
      const second = await call('alice', 'POST', `/projects/${app}/approval_rules`, { name: 'Any 2', approvals_required: 0, rule_type: 'any_approver' });
      expect(second).toMatchObject({ status: 400, body: { message: { rule_type: ['any-approver for the project already exists'] } } });
      const report = await ok('alice', 'POST', `/projects/${app}/approval_rules`, {
        name: 'License-Check',
        approvals_required: 2,
        report_type: 'license_scanning',
        user_ids: [users.alice.id],
      });
      expect(report).toMatchObject({ rule_type: 'report_approver', report_type: 'license_scanning' });
      expect((await call('alice', 'POST', `/projects/${app}/approval_rules`, { name: 'R', approvals_required: 1, rule_type: 'report_approver' })).body).toEqual(
        { message: { report_type: ["can't be blank"] } },
      );
      expect((await call('alice', 'POST', `/projects/${app}/approval_rules`, { name: 'R', approvals_required: 1, report_type: 'nope' })).status).toBe(400);
      const release = await ok('alice', 'POST', `/projects/${app}/approval_rules`, {
        name: 'Release',
        approvals_required: 1,
        user_ids: [users.alice.id, users.frank.id],
        protected_branch_ids: [releaseBranchId, 999999],
      });
      expect(release.protected_branches).toEqual([expect.objectContaining({ id: releaseBranchId, name: 'release' })]);

      const replaced = await ok('alice', 'PUT', `/projects/${app}/approval_rules/${release.id}`, {
        name: 'Release',
        approvals_required: 1,
        user_ids: [users.frank.id],
      });
      expect(replaced.users.map((u: { username: string }) => u.username)).toEqual(['frank']);
      expect(replaced.protected_branches).toHaveLength(1);

      const page = await call('bob', 'GET', `/projects/${app}/approval_rules?per_page=2&page=2`);
      expect(page.status).toBe(200);
      expect(page.headers.get('x-total')).toBe('5');
      expect(page.body.map((r: { name: string }) => r.name)).toEqual(['All Members', 'License-Check']);
    });

    it('answers the validation and permission errors as GitLab', async () => {
      const post = (name: string, body: unknown) => call(name, 'POST', `/projects/${app}/approval_rules`, body);
      expect(await post('alice', { name: 'Security', approvals_required: 1 })).toMatchObject({
        status: 400,
        body: { message: { name: ['has already been taken'] } },
      });
      expect(await post('alice', { name: ' ', approvals_required: 1 })).toMatchObject({ status: 400, body: { message: { name: ["can't be blank"] } } });
      expect(await post('alice', { name: 'Many', approvals_required: 101 })).toMatchObject({
        status: 400,
        body: { message: { approvals_required: ['must be less than or equal to 100'] } },
      });
      expect((await post('alice', { approvals_required: 1 })).status).toBe(400);
      expect((await post('alice', { name: 'X' })).status).toBe(400);
      expect((await post('alice', { name: 'X', approvals_required: 1, user_ids: ['a'] })).status).toBe(400);
      expect((await post('bob', { name: 'X', approvals_required: 1 })).status).toBe(403);
      expect((await call('dave', 'GET', `/projects/${app}/approval_rules`)).status).toBe(403);
      expect((await call('gina', 'GET', `/projects/${app}/approval_rules`)).status).toBe(404);
      expect((await call('alice', 'PUT', `/projects/${app}/approval_rules/999999`, { name: 'x', approvals_required: 1 })).status).toBe(404);
      const security = (await ok('alice', 'GET', `/projects/${app}/approval_rules`)).find((r: { name: string }) => r.name === 'Security');
      expect(await call('alice', 'PUT', `/projects/${app}/approval_rules/${security.id}`, { approvals_required: 1 })).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "name" not given' },
      });
      expect((await call('alice', 'GET', `/projects/${app}/approval_rules/abc`)).status).toBe(400);
    });
  });

  describe('merge requests', () => {
    let iid: number;
    const mrPath = () => `/projects/${app}/merge_requests/${iid}`;
    const names = (list: Array<{ name: string }>) => list.map((r) => r.name).sort();

    it('copies the applicable project rules when a merge request is opened and when its target changes', async () => {
      iid = (await ok('erin', 'POST', `/projects/${app}/merge_requests`, { title: 'Feature', source_branch: 'topic', target_branch: 'main' })).iid;
      const rules = await ok('bob', 'GET', `${mrPath()}/approval_rules`);
      expect(names(rules)).toEqual(['All Members', 'License-Check', 'Reviewers', 'Security']);
      const security = rules.find((r: { name: string }) => r.name === 'Security');
      expect(security).toMatchObject({ rule_type: 'regular', approvals_required: 1, source_rule: { approvals_required: 1 }, overridden: false, section: null });
      // A report rule needs no approval while no report asks for one.
      expect(rules.find((r: { name: string }) => r.name === 'License-Check')).toMatchObject({ approvals_required: 0, source_rule: { approvals_required: 2 } });
      expect(await ok('bob', 'GET', `${mrPath()}/approval_rules/${security.id}`)).toMatchObject({ id: security.id, name: 'Security' });

      await ok('erin', 'PUT', mrPath(), { target_branch: 'release' });
      expect(names(await ok('bob', 'GET', `${mrPath()}/approval_rules`))).toEqual(['All Members', 'License-Check', 'Release', 'Reviewers', 'Security']);
      await ok('erin', 'PUT', mrPath(), { target_branch: 'main' });
      expect(names(await ok('bob', 'GET', `${mrPath()}/approval_rules`))).toEqual(['All Members', 'License-Check', 'Reviewers', 'Security']);

      // A project rule change reaches the merge requests whose rules were not overwritten.
      const project = (await ok('alice', 'GET', `/projects/${app}/approval_rules`)).find((r: { name: string }) => r.name === 'All Members');
      await ok('alice', 'PUT', `/projects/${app}/approval_rules/${project.id}`, { name: 'All Members', approvals_required: 0 });
      const state = await ok('bob', 'GET', `${mrPath()}/approval_state`);
      expect(state.approval_rules_overwritten).toBe(false);
      expect(state.rules.map((r: { approved: boolean; approved_by: unknown[] }) => [r.approved, r.approved_by])).toHaveLength(4);
    });

    it('refuses the merge (405) and shows not_approved until every rule is approved', async () => {
      const shown = await ok('alice', 'GET', mrPath());
      expect(shown.detailed_merge_status).toBe('not_approved');
      expect(await call('alice', 'PUT', `${mrPath()}/merge`)).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
      // The /merge quick action goes through the same merge path: refused, the merge request stays open.
      const note = await call('alice', 'POST', `${mrPath()}/notes`, { body: 'Ship it\n/merge', merge_request_diff_head_sha: shown.sha });
      expect(note.status).toBe(201);
      expect(note.body.commands_changes).toEqual({});
      expect((await ok('alice', 'GET', mrPath())).state).toBe('opened');
      const status = await ok('dave', 'GET', `${mrPath()}/approvals`);
      expect(status).toMatchObject({
        iid,
        project_id: app,
        state: 'opened',
        merge_status: 'can_be_merged',
        approved: false,
        approvals_required: 2,
        approvals_left: 2,
        approved_by: [],
        user_has_approved: false,
        user_can_approve: false,
        has_approval_rules: true,
      });
      expect(status.approval_rules_left.map((r: { name: string }) => r.name).sort()).toEqual(['Reviewers', 'Security']);
    });

    it('approves: not the author, not twice, only eligible users, sha checked; one approval counts for every rule it is eligible for', async () => {
      expect(await call('erin', 'POST', `${mrPath()}/approve`)).toMatchObject({ status: 403 });
      expect(await call('dave', 'POST', `${mrPath()}/approve`)).toMatchObject({ status: 403 });
      const head = (await ok('alice', 'GET', mrPath())).sha;
      expect(await call('bob', 'POST', `${mrPath()}/approve`, { sha: '0'.repeat(40) })).toMatchObject({
        status: 409,
        body: { message: `SHA does not match HEAD of source branch: ${head}` },
      });
      const bob = await call('bob', 'POST', `${mrPath()}/approve`, { sha: head });
      expect(bob.status).toBe(201);
      expect(bob.body).toMatchObject({ approved: false, approvals_left: 1, user_has_approved: true, user_can_approve: false });
      expect(bob.body.approved_by.map((a: { user: { username: string } }) => a.user.username)).toEqual(['bob']);
      expect(await call('bob', 'POST', `${mrPath()}/approve`)).toMatchObject({ status: 403 });
      expect((await call('alice', 'PUT', `${mrPath()}/merge`)).status).toBe(405);

      expect(await call('dave', 'POST', `${mrPath()}/unapprove`)).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      const carol = await ok('carol', 'POST', `${mrPath()}/approve`);
      expect(carol).toMatchObject({ approved: true, approvals_left: 0, approval_rules_left: [] });
      const state = await ok('dave', 'GET', `${mrPath()}/approval_state`);
      const byName = Object.fromEntries(
        state.rules.map((r: { name: string; approved: boolean; approved_by: Array<{ username: string }> }) => [
          r.name,
          [r.approved, r.approved_by.map((u) => u.username)],
        ]),
      );
      expect(byName).toEqual({ Security: [true, ['bob']], Reviewers: [true, ['carol']], 'All Members': [true, ['bob', 'carol']], 'License-Check': [true, []] });
      expect((await ok('alice', 'GET', mrPath())).detailed_merge_status).toBe('mergeable');

      const withdrawn = await ok('carol', 'POST', `${mrPath()}/unapprove`);
      expect(withdrawn).toMatchObject({ approved: false, approvals_left: 1 });
      expect((await call('alice', 'PUT', `${mrPath()}/merge`)).status).toBe(405);
      await ok('carol', 'POST', `${mrPath()}/approve`);
    });

    it('records merge_request.approved / unapproved with their hook actions, and "approved" contribution events', async () => {
      const rows = await gw.dataSource.query(
        `SELECT payload->>'type' AS type, payload->'data'->>'action' AS action, payload->'actor' AS actor FROM outbox_events WHERE payload->>'type' IN ('merge_request.approved', 'merge_request.unapproved') ORDER BY seq`,
      );
      expect(rows.map((r: { type: string; action: string; actor: number }) => [r.type, r.action, Number(r.actor)])).toEqual([
        ['merge_request.approved', 'approval', users.bob.id],
        ['merge_request.approved', 'approved', users.carol.id],
        ['merge_request.unapproved', 'unapproved', users.carol.id],
        ['merge_request.approved', 'approved', users.carol.id],
      ]);
      const events = await eventually(
        async () => {
          const res = await call('root', 'GET', `/projects/${app}/events?action=approved`);
          return res.body.length >= 3 ? res.body : undefined;
        },
        'three approved events',
        40_000,
      );
      expect(events[0]).toMatchObject({ action_name: 'approved', target_type: 'MergeRequest', target_iid: iid });

      // System hooks get merge_request events with GitLab's approval actions.
      const approvalActions = ['approval', 'approved', 'unapproval', 'unapproved'];
      const deliveries = await eventually(
        () => {
          const found = receiver
            .at('/system')
            .filter((d) => d.json.object_kind === 'merge_request' && approvalActions.includes(d.json.object_attributes?.action));
          return found.length >= 4 ? found : undefined;
        },
        'four approval deliveries',
        30_000,
      );
      // (Deliveries are separate jobs: compared without their order.)
      expect(deliveries.map((d) => [d.json.object_attributes.action, d.json.user.id, d.json.object_attributes.iid]).sort()).toEqual([
        ['approval', users.bob.id, iid],
        ['approved', users.carol.id, iid],
        ['approved', users.carol.id, iid],
        ['unapproved', users.carol.id, iid],
      ]);
      expect(deliveries[0].json).toMatchObject({ object_kind: 'merge_request', event_type: 'merge_request', project: { id: app } });
      expect(deliveries[0].json.object_attributes).not.toHaveProperty('approvals_left');
    }, 60_000);

    it('merges once approved', async () => {
      const merged = await call('alice', 'PUT', `${mrPath()}/merge`);
      expect(merged.status).toBe(200);
      expect(merged.body).toMatchObject({ state: 'merged', detailed_merge_status: 'not_open' });
      expect((await call('bob', 'POST', `${mrPath()}/approve`)).status).toBe(403);
    });

    it('merge request rules: created from a project rule, overridden, system rules and disabled overriding refused', async () => {
      await ok('root', 'POST', `/projects/${app}/repository/branches`, { branch: 'topic2', ref: 'main' });
      iid = (await ok('erin', 'POST', `/projects/${app}/merge_requests`, { title: 'Second', source_branch: 'topic2', target_branch: 'main' })).iid;
      const rules = await ok('erin', 'GET', `${mrPath()}/approval_rules`);
      const security = rules.find((r: { name: string }) => r.name === 'Security');
      const report = rules.find((r: { name: string }) => r.name === 'License-Check');
      const project = (await ok('alice', 'GET', `/projects/${app}/approval_rules`)).find((r: { name: string }) => r.name === 'Release');

      expect(await call('dave', 'POST', `${mrPath()}/approval_rules`, { name: 'x', approvals_required: 1 })).toMatchObject({ status: 403 });
      const copied = await call('erin', 'POST', `${mrPath()}/approval_rules`, { name: 'ignored', approvals_required: 2, approval_project_rule_id: project.id });
      expect(copied.status).toBe(201);
      expect(copied.body).toMatchObject({ name: 'Release', approvals_required: 2, source_rule: { approvals_required: 1 }, overridden: true });
      expect(copied.body.users.map((u: { username: string }) => u.username)).toEqual(['frank']);
      expect((await ok('erin', 'GET', `${mrPath()}/approval_state`)).approval_rules_overwritten).toBe(true);

      const changed = await ok('erin', 'PUT', `${mrPath()}/approval_rules/${security.id}`, { approvals_required: 1, user_ids: [users.frank.id] });
      expect(changed).toMatchObject({ overridden: true, users: [expect.objectContaining({ username: 'frank' })] });
      expect(await call('erin', 'PUT', `${mrPath()}/approval_rules/${report.id}`, { approvals_required: 1 })).toMatchObject({ status: 403 });
      expect(await call('erin', 'POST', `${mrPath()}/approval_rules`, { name: 'Release', approvals_required: 1 })).toMatchObject({
        status: 400,
        body: { message: { name: ['has already been taken'] } },
      });

      // Overwritten rules no longer follow the project rules.
      await ok('alice', 'PUT', `/projects/${app}/approval_rules/${project.id}`, { name: 'Release', approvals_required: 3 });
      expect((await ok('erin', 'GET', `${mrPath()}/approval_rules/${copied.body.id}`)).approvals_required).toBe(2);

      await ok('alice', 'POST', `/projects/${app}/approvals`, { disable_overriding_approvers_per_merge_request: true });
      expect(await call('erin', 'PUT', `${mrPath()}/approval_rules/${security.id}`, { approvals_required: 0 })).toMatchObject({ status: 403 });
      expect(await call('erin', 'POST', `${mrPath()}/approval_rules`, { name: 'y', approvals_required: 0 })).toMatchObject({ status: 403 });
      expect(await call('erin', 'POST', `${mrPath()}/approvals`, { approvals_required: 3 })).toMatchObject({ status: 403 });
      await ok('alice', 'POST', `/projects/${app}/approvals`, { disable_overriding_approvers_per_merge_request: false });
      expect((await call('erin', 'DELETE', `${mrPath()}/approval_rules/${copied.body.id}`)).status).toBe(204);
    });

    it('POST …/approvals sets the deprecated approvals_required, at least the project approvals_before_merge', async () => {
      await ok('alice', 'POST', `/projects/${app}/approvals`, { approvals_before_merge: 2 });
      expect(await call('erin', 'POST', `${mrPath()}/approvals`, { approvals_required: 1 })).toMatchObject({
        status: 400,
        body: { message: { validate_approvals_before_merge: ['Number of approvals must be at least that of approvals on the target project'] } },
      });
      const set = await call('erin', 'POST', `${mrPath()}/approvals`, { approvals_required: 5 });
      expect(set.status).toBe(201);
      expect(set.body.approvals_required).toBe(5);
      await ok('alice', 'POST', `/projects/${app}/approvals`, { approvals_before_merge: 0 });
    });
  });

  describe('approving rules of the project configuration', () => {
    let project: number;
    let iid: number;
    const mrPath = () => `/projects/${project}/merge_requests/${iid}`;

    beforeAll(async () => {
      project = (await ok('root', 'POST', '/projects', { name: 'settings', initialize_with_readme: true })).id;
      for (const [name, level] of [
        ['alice', 40],
        ['bob', 30],
        ['erin', 30],
      ] as const)
        await addProjectMember(gw, project, users[name].id, level);
      await ok('root', 'POST', `/projects/${project}/repository/branches`, { branch: 'work', ref: 'main' });
      await ok('alice', 'POST', `/projects/${project}/approval_rules`, { name: 'Any', approvals_required: 1, rule_type: 'any_approver' });
      iid = (await ok('erin', 'POST', `/projects/${project}/merge_requests`, { title: 'Work', source_branch: 'work', target_branch: 'main' })).iid;
    }, 60_000);

    it('lets the author approve only with merge_requests_author_approval', async () => {
      expect((await call('erin', 'POST', `${mrPath()}/approve`)).status).toBe(403);
      await ok('alice', 'POST', `/projects/${project}/approvals`, { merge_requests_author_approval: true });
      expect(await ok('erin', 'POST', `${mrPath()}/approve`)).toMatchObject({ approved: true });
      // Authors' approvals stop counting once authors may no longer approve.
      await ok('alice', 'POST', `/projects/${project}/approvals`, { merge_requests_author_approval: false });
      expect((await ok('bob', 'GET', `${mrPath()}/approvals`)).approvals_left).toBe(1);
      await ok('erin', 'POST', `${mrPath()}/unapprove`);
    });

    it('asks for the password with require_password_to_approve (401 without or with a wrong one)', async () => {
      await ok('alice', 'POST', `/projects/${project}/approvals`, { require_password_to_approve: true });
      expect((await ok('bob', 'GET', `${mrPath()}/approvals`)).require_password_to_approve).toBe(true);
      expect(await call('bob', 'POST', `${mrPath()}/approve`)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect((await call('bob', 'POST', `${mrPath()}/approve`, { approval_password: 'wrong-password' })).status).toBe(401);
      expect(await ok('bob', 'POST', `${mrPath()}/approve`, { approval_password: 'secret-password-1' })).toMatchObject({ approved: true });
      await ok('alice', 'POST', `/projects/${project}/approvals`, { require_password_to_approve: false });
    });

    it('resets approvals on a real push to the source branch, and refuses committers with merge_requests_disable_committers_approval', async () => {
      expect((await ok('bob', 'GET', `${mrPath()}/approvals`)).approved_by).toHaveLength(1);
      const work = git.dir('settings');
      await git.ok(['clone', '-q', '--branch', 'work', cloneUrl(gw.baseUrl, 'root/settings', users.alice), work]);
      await git.commitFile(work, 'bob.txt', 'by bob\n', 'Committed by bob');
      await git.ok(['commit', '-q', '--amend', '--no-edit'], { cwd: work, env: { GIT_COMMITTER_NAME: 'Bob', GIT_COMMITTER_EMAIL: 'bob@example.com' } });
      await git.ok(['push', '-q', 'origin', 'work'], { cwd: work });
      await eventually(
        async () => ((await ok('bob', 'GET', `${mrPath()}/approvals`)).approved_by.length === 0 ? true : undefined),
        'approvals reset by the push',
        30_000,
      );

      await ok('alice', 'POST', `/projects/${project}/approvals`, { merge_requests_disable_committers_approval: true });
      expect((await ok('bob', 'GET', `${mrPath()}/approvals`)).user_can_approve).toBe(false);
      expect((await call('bob', 'POST', `${mrPath()}/approve`)).status).toBe(403);
      await ok('alice', 'POST', `/projects/${project}/approvals`, { merge_requests_disable_committers_approval: false });
      expect(await ok('bob', 'POST', `${mrPath()}/approve`)).toMatchObject({ approved: true });
    }, 60_000);

    it('keeps approvals on push when reset_approvals_on_push is off', async () => {
      await ok('alice', 'POST', `/projects/${project}/approvals`, { reset_approvals_on_push: false });
      const push = buildDomainEvent({
        type: 'push',
        actor: users.alice.id,
        projectId: project,
        data: { ref: 'refs/heads/work', before: 'a'.repeat(40), after: 'b'.repeat(40) },
      }) as CataloguedEvent<'push'>;
      await gw.app.get(ApprovalsPushConsumer).handle(push);
      expect((await ok('bob', 'GET', `${mrPath()}/approvals`)).approved_by).toHaveLength(1);
      await ok('alice', 'POST', `/projects/${project}/approvals`, { reset_approvals_on_push: true });
      await gw.app.get(ApprovalsPushConsumer).handle(push);
      expect((await ok('bob', 'GET', `${mrPath()}/approvals`)).approved_by).toHaveLength(0);
    });

    it('resets approvals for maintainers (202) and not for developers (401)', async () => {
      await ok('bob', 'POST', `${mrPath()}/approve`);
      expect(await call('bob', 'PUT', `${mrPath()}/reset_approvals`)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      const reset = await call('alice', 'PUT', `${mrPath()}/reset_approvals`);
      // GitLab's body is the JSON number 202 (python-gitlab parses the body as JSON).
      expect(reset.status).toBe(202);
      expect(reset.text).toBe('202');
      expect(reset.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await ok('bob', 'GET', `${mrPath()}/approvals`)).approved_by).toEqual([]);
      expect((await call('alice', 'PUT', `/projects/${project}/merge_requests/999/reset_approvals`)).status).toBe(404);
    });
  });
});
