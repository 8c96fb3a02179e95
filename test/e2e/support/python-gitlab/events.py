"""Events: the caller's, a project's and a user's."""
from common import answer, args, client

a = args()
gl = client()
project = gl.projects.get(a["project_id"], lazy=True)
answer({
    "mine": [(e.action_name, e.target_type, e.project_id) for e in gl.events.list(get_all=True)],
    "project": [(e.action_name, e.target_type, e.target_title) for e in project.events.list(get_all=True)],
    "project_issues": [e.target_title for e in project.events.list(target_type="issue", get_all=True)],
    "user": [e.action_name for e in gl.users.get(a["user_id"]).events.list(get_all=True)],
})
