import { normalizeLabels } from '../relations/issuable-relations';
import { ITERATION_STATES, iterationStateName, presentIterationSnapshot } from './iteration.presenter';
import { milestoneExpired, presentMilestoneSnapshot } from './milestone.presenter';

describe(iterationStateName.name, () => {
  it.each([
    ['2030-01-01', '2030-01-14', 'upcoming'],
    ['2026-06-01', '2026-06-14', 'current'],
    ['2026-06-10', '2026-06-10', 'current'],
    ['2026-05-01', '2026-06-09', 'closed'],
  ])('%s..%s on 2026-06-10 is %s', (start, due, expected) => {
    expect(iterationStateName(start, due, '2026-06-10')).toBe(expected);
  });

  it("is shown as GitLab's integer state", () => {
    const view = presentIterationSnapshot(
      { id: 1, iid: 2, group_id: 3, title: null, description: null, start_date: '2000-01-01', due_date: '2000-01-02', created_at: 'c', updated_at: 'u' },
      'https://x',
    );
    expect(view).toMatchObject({ id: 1, iid: 2, sequence: 2, group_id: 3, state: ITERATION_STATES.closed });
  });

  it('links to the iteration under its group path, as GitLab', () => {
    const snapshot = {
      id: 7,
      iid: 2,
      group_id: 3,
      title: null,
      description: null,
      start_date: '2000-01-01',
      due_date: '2000-01-02',
      created_at: 'c',
      updated_at: 'u',
    };
    expect(presentIterationSnapshot(snapshot, 'https://x', new Map([[3, 'ops/platform']])).web_url).toBe('https://x/groups/ops/platform/-/iterations/7');
  });
});

describe(milestoneExpired.name, () => {
  it('expires the day after the due date, never without one', () => {
    expect(milestoneExpired('2026-06-09', '2026-06-10')).toBe(true);
    expect(milestoneExpired('2026-06-10', '2026-06-10')).toBe(false);
    expect(milestoneExpired(null, '2026-06-10')).toBe(false);
  });
});

describe(presentMilestoneSnapshot.name, () => {
  const snapshot = {
    id: 5,
    iid: 2,
    project_id: null,
    group_id: 7,
    title: 'Q3',
    description: null,
    state: 'active',
    created_at: 'c',
    updated_at: 'u',
    due_date: null,
    start_date: null,
  };
  it('shows group milestones without project_id and with the group web_url', () => {
    const view = presentMilestoneSnapshot(snapshot, 'https://x', 'groups/ops');
    expect(view).not.toHaveProperty('project_id');
    expect(view).toMatchObject({ group_id: 7, web_url: 'https://x/groups/ops/-/milestones/2', expired: false });
  });
});

describe(normalizeLabels.name, () => {
  it('trims, drops empty and repeated labels, keeping the order', () => {
    expect(normalizeLabels([' ops', 'disk', 'ops', '', 'db '])).toEqual(['ops', 'disk', 'db']);
  });
});
