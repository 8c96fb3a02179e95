"""System hooks: what python-gitlab's hook methods make of the spec's one-element arrays."""
import gitlab

from common import answer, args, client, http_error

a = args()
gl = client()


def outcome(call):
    try:
        value = call()
    except (gitlab.exceptions.GitlabError, gitlab.exceptions.GitlabParsingError) as error:
        return {"error": type(error).__name__, "message": str(error)[:120]}
    return {"ok": True, "value": value}


# POST /hooks answers [hook]: python-gitlab builds a RESTObject from the answer and refuses a list.
created = outcome(lambda: gl.hooks.create({"url": a["url"], "push_events": True}).id)
hooks = gl.hooks.list(get_all=True)
listed = [(h.id, h.url, h.push_events) for h in hooks]
hook_id = hooks[0].id if hooks else None
# GET /hooks/:id answers [hook] too.
fetched = outcome(lambda: gl.hooks.get(hook_id).url)
# Test delivery: POST /hooks/:id (python-gitlab 3.12 has no method for it; the raw call works).
tested = outcome(lambda: gl.http_post(f"/hooks/{hook_id}")["event_name"])
deleted = http_error(lambda: gl.hooks.delete(hook_id))
answer({
    "created": created,
    "listed": listed,
    "fetched": fetched,
    "tested": tested,
    "deleted": deleted,
    "after_delete": [h.id for h in gl.hooks.list(get_all=True)],
})
