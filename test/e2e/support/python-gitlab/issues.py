"""Issues with labels, a milestone, notes and award emoji; then closed."""
from common import answer, args, client

a = args()
gl = client()
project = gl.projects.get(a["project_id"])
label = project.labels.create({"name": "bug", "color": "#d9534f", "description": "broken"})
project.labels.create({"name": "ops", "color": "#5843AD"})
# Gap: ProjectLabel.save() sends PUT /projects/:id/labels (name in the body, GitLab's older form);
# the service has only PUT /projects/:id/labels/:label_id and answers 405.
project.labels.create({"name": "temporary", "color": "#000000"}).delete()
milestone = project.milestones.create({"title": "v1.0", "description": "first"})
milestone.state_event = "close"
milestone.save()
milestone_state = project.milestones.get(milestone.id).state
milestone.state_event = "activate"
milestone.save()

issue = project.issues.create({"title": "Alerts drop", "description": "lost on restart", "labels": ["bug"], "milestone_id": milestone.id})
note = issue.notes.create({"body": "seen on staging"})
note.body = "seen on staging twice"
note.save()
issue_award = issue.awardemojis.create({"name": "thumbsup"})
note_award = note.awardemojis.create({"name": "eyes"})

issue.labels = ["bug", "ops"]
issue.save()
issue.state_event = "close"
issue.save()
fetched = project.issues.get(issue.iid)

answer({
    "iid": issue.iid,
    "id": issue.id,
    "title": fetched.title,
    "state": fetched.state,
    "labels": sorted(fetched.labels),
    "milestone": fetched.milestone["title"],
    "milestone_state_closed": milestone_state,
    "milestone_state": project.milestones.get(milestone.id).state,
    "label_names": sorted(l.name for l in project.labels.list(get_all=True)),
    "label_description": project.labels.get("bug").description,
    "label_color": label.color,
    "note_id": note.id,
    "notes": [n.body for n in fetched.notes.list(get_all=True) if not n.system],
    "issue_award": [issue_award.id, issue_award.name],
    "issue_awards": [e.name for e in fetched.awardemojis.list(get_all=True)],
    "note_awards": [e.name for e in fetched.notes.get(note.id).awardemojis.list(get_all=True)],
    "note_award": note_award.name,
    "closed_list": [i.iid for i in project.issues.list(state="closed", get_all=True)],
    "by_label": [i.iid for i in project.issues.list(labels=["ops"], get_all=True)],
    # Gap: milestone.issues() reads GET /projects/:id/milestones/:milestone_id/issues (404 here).
    "milestone_issues": [i.iid for i in project.issues.list(milestone="v1.0", get_all=True)],
    "global": [i.id for i in gl.issues.list(scope="all", get_all=True)],
})
