"""Shared by the python-gitlab tour scripts: the client, the arguments, the JSON answer.

Each script is run by test/e2e/python-gitlab.e2e-spec.ts as
`/usr/bin/python3 <script>.py '<json arguments>'` with GITLAB_URL and GITLAB_TOKEN in its
environment, and prints one JSON object on stdout for the test to check against the REST API.
"""
import json
import os
import sys

import gitlab


def client(token=None):
    gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=token or os.environ["GITLAB_TOKEN"])
    gl.auth()
    return gl


def args():
    return json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}


def answer(value):
    json.dump(value, sys.stdout)
    sys.stdout.write("\n")


def http_error(call):
    """Runs call(); returns None when it succeeded, else the error's class name and code."""
    try:
        call()
    except gitlab.exceptions.GitlabError as error:
        return {"error": type(error).__name__, "code": error.response_code}
    return None
