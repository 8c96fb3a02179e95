"""Projects: create, get (by id and by path), list, update, star, archive."""
from common import answer, args, client

a = args()
gl = client()
project = gl.projects.create({"name": a["name"], "description": "first words", "visibility": "private", "initialize_with_readme": True})
by_id = gl.projects.get(project.id)
by_path = gl.projects.get(project.path_with_namespace)
listed = [p.id for p in gl.projects.list(search=a["name"], get_all=True)]
owned = [p.id for p in gl.projects.list(owned=True, get_all=True)]

by_id.description = "second words"
by_id.save()
after_save = gl.projects.get(project.id).description

by_id.star()
star_count = gl.projects.get(project.id).star_count
starred = [p.id for p in gl.users.get(gl.user.id).starred_projects.list(get_all=True)]
by_id.unstar()
star_count_after = gl.projects.get(project.id).star_count

by_id.archive()
archived = gl.projects.get(project.id).archived
listed_archived = [p.id for p in gl.projects.list(archived=True, get_all=True)]
by_id.unarchive()
unarchived = gl.projects.get(project.id).archived

answer({
    "id": project.id,
    "path_with_namespace": project.path_with_namespace,
    "default_branch": project.default_branch,
    "by_id": by_id.name,
    "by_path": by_path.id,
    "listed": listed,
    "owned": owned,
    "after_save": after_save,
    "star_count": star_count,
    "starred": starred,
    "star_count_after": star_count_after,
    "archived": archived,
    "listed_archived": listed_archived,
    "unarchived": unarchived,
})
