"""Pipelines and jobs: list the pushed pipeline, create one, read jobs."""
from common import answer, args, client

a = args()
gl = client()
project = gl.projects.get(a["project_id"])
pushed = [(p.id, p.ref, p.sha) for p in project.pipelines.list(get_all=True)]
created = project.pipelines.create({"ref": "main"})
fetched = project.pipelines.get(created.id)
pipeline_jobs = fetched.jobs.list(get_all=True)
job = project.jobs.get(pipeline_jobs[0].id)
answer({
    "pushed": pushed,
    "created": [created.id, created.ref, created.sha, created.source],
    "fetched_status": fetched.status,
    "pipeline_jobs": sorted(j.name for j in pipeline_jobs),
    "job": [job.id, job.name, job.stage, job.status, job.pipeline["id"]],
    "project_jobs": sorted(j.id for j in project.jobs.list(get_all=True)),
    "cancelled": project.pipelines.get(created.id).cancel()["status"],
    "by_ref": [p.id for p in project.pipelines.list(ref="main", get_all=True)],
})
