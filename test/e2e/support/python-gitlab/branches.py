"""Branches: create one from a pushed commit, list, protect, delete."""
from common import answer, args, client, http_error

a = args()
gl = client()
project = gl.projects.get(a["project_id"])
branch = project.branches.create({"branch": "release", "ref": a["sha"]})
names = sorted(b.name for b in project.branches.list(get_all=True))
protected = project.protectedbranches.create({"name": "release", "push_access_level": 40, "merge_access_level": 30})
fetched = project.protectedbranches.get("release")
temporary = project.branches.create({"branch": "scratch", "ref": "main"})
temporary.delete()
answer({
    "name": branch.name,
    "commit": branch.commit["id"],
    "names": names,
    "protected": project.branches.get("release").protected,
    "protected_name": protected.name,
    "push_levels": [l["access_level"] for l in fetched.push_access_levels],
    "merge_levels": [l["access_level"] for l in fetched.merge_access_levels],
    "protected_list": [p.name for p in project.protectedbranches.list(get_all=True)],
    "scratch_gone": http_error(lambda: project.branches.get("scratch")),
})
