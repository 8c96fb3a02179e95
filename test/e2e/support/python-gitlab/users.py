"""Users: create, find, block and unblock, tokens."""
from common import answer, args, client, http_error

a = args()
gl = client()
user = gl.users.create({"username": a["username"], "name": "Tour User", "email": f"{a['username']}@example.com", "password": "tour-password-123"})
found = [u.id for u in gl.users.list(username=a["username"], get_all=True)]
token = user.personal_access_tokens.create({"name": "tour", "scopes": ["api"]})
as_user = client(token.token)
me = as_user.user.username
impersonation = user.impersonationtokens.create({"name": "imp", "scopes": ["read_api"]})
impersonations = [t.name for t in user.impersonationtokens.list(get_all=True)]
tokens = sorted(t.name for t in gl.personal_access_tokens.list(user_id=user.id, get_all=True))

blocked = user.block()
state_blocked = gl.users.get(user.id).state
refused = http_error(lambda: as_user.projects.list(get_all=True))
unblocked = user.unblock()
state_active = gl.users.get(user.id).state

answer({
    "id": user.id,
    "username": user.username,
    "found": found,
    "token_id": token.id,
    "token_scopes": token.scopes,
    "me": me,
    "impersonation": [impersonation.name, impersonation.impersonation],
    "impersonations": impersonations,
    "tokens": tokens,
    "blocked": blocked,
    "state_blocked": state_blocked,
    "refused_while_blocked": refused,
    "unblocked": unblocked,
    "state_active": state_active,
    "user_events": [e.action_name for e in gl.users.get(user.id).events.list(get_all=True)],
})
