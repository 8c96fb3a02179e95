"""Merge requests with approvals (rules, approve, unapprove) and a merge."""
from common import answer, args, client

a = args()
gl = client()
reviewer = client(a["reviewer_token"])
project = gl.projects.get(a["project_id"])

rule = project.approvalrules.create({"name": "reviewers", "approvals_required": 1, "user_ids": [a["reviewer_id"]]})
project_rules = [(r.name, r.approvals_required) for r in project.approvalrules.list(get_all=True)]

mr = project.mergerequests.create({"source_branch": a["source"], "target_branch": "main", "title": "Add feature"})
mr_rule = mr.approval_rules.create({"name": "extra", "approvals_required": 1, "user_ids": [a["reviewer_id"]]})
mr_rules = sorted(r.name for r in mr.approval_rules.list(get_all=True))

as_reviewer = reviewer.projects.get(a["project_id"], lazy=True).mergerequests.get(mr.iid)
approved = as_reviewer.approve()
approvals = mr.approvals.get()
approved_by = [u["user"]["username"] for u in approvals.approved_by]
state = mr.approval_state.get()
as_reviewer.unapprove()
after_unapprove = [u["user"]["username"] for u in mr.approvals.get().approved_by]
as_reviewer.approve()

mr.notes.create({"body": "looks right"})
merged = mr.merge()
fetched = project.mergerequests.get(mr.iid)
answer({
    "iid": mr.iid,
    "rule_id": rule.id,
    "project_rules": project_rules,
    "mr_rule": mr_rule.name,
    "mr_rules": mr_rules,
    "approved_state": approved.get("approved"),
    "approved_by": approved_by,
    "state_rules": sorted((r["name"], r["approved"]) for r in state.rules),
    "after_unapprove": after_unapprove,
    "merge_state": merged.get("state"),
    "state": fetched.state,
    "merge_commit_sha": fetched.merge_commit_sha,
    "notes": [n.body for n in fetched.notes.list(get_all=True) if not n.system],
    "listed": [m.iid for m in project.mergerequests.list(state="merged", get_all=True)],
})
