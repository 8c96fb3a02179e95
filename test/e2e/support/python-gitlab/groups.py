"""Groups and members: a group, a project in it, a member of each."""
from common import answer, args, client

a = args()
gl = client()
group = gl.groups.create({"name": a["group"], "path": a["group"].lower()})
subgroup = gl.groups.create({"name": "Sub", "path": "sub", "parent_id": group.id})
project = gl.projects.create({"name": a["project"], "namespace_id": group.id})

member = group.members.create({"user_id": a["user_id"], "access_level": 30})
member.access_level = 40
member.save()
group_members = {m.username: m.access_level for m in group.members.list(get_all=True)}
# At least the inherited level (Maintainer), as in GitLab.
project_member = project.members.create({"user_id": a["user_id"], "access_level": 50})
project_members = {m.username: m.access_level for m in project.members.list(get_all=True)}
project_members_all = sorted(m.username for m in project.members_all.list(get_all=True))

fetched = gl.groups.get(group.id)
answer({
    "group_id": group.id,
    "full_path": fetched.full_path,
    "subgroups": [g.full_path for g in fetched.subgroups.list(get_all=True)],
    "subgroup_parent": subgroup.parent_id,
    "group_projects": [p.id for p in fetched.projects.list(get_all=True)],
    "project_id": project.id,
    "project_path": project.path_with_namespace,
    "group_members": group_members,
    "project_member": project_member.access_level,
    "project_members": project_members,
    "project_members_all": project_members_all,
    "listed": [g.full_path for g in gl.groups.list(search=a["group"], get_all=True)],
})
