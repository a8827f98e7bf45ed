"""The OpenAPI schema is the behaviour: schemathesis checks the live service against it.

``schemathesis run`` generates requests from ``/openapi.json`` (valid ones, and invalid ones
for every field and limit), sends them to a real server process, and applies every check
it has: no 5xx, every status and header documented, every response body matching its
schema, invalid input refused with a 4xx, valid input accepted, a 405 with ``Allow`` for a
method a path lacks, and stateful sequences that follow the schema's links (create a
session, then post to it and read it back). The seed is fixed, so every run sends the same
requests; the test expects zero failures.

A ``text/event-stream`` endpoint, if the service has one, is left out: its response never
ends, and a fuzzer waiting for the end would wait forever.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from sqlite_demo.server import ServerProcess

SEED = 20240610
EXAMPLES_PER_OPERATION = 60


def _streaming_paths(server: ServerProcess) -> list[str]:
    schema = httpx.get(f"{server.url}/openapi.json", headers=server.headers, timeout=10).json()
    return sorted(
        path
        for path, operations in schema["paths"].items()
        for operation in operations.values()
        for response in operation.get("responses", {}).values()
        if "text/event-stream" in response.get("content", {})
    )


@pytest.mark.skipif(shutil.which("schemathesis") is None, reason="schemathesis not installed")
def test_schemathesis_finds_no_failure_with_every_check_and_the_stateful_links(
    server: ServerProcess, tmp_path: Path
) -> None:
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "run",
        f"{server.url}/openapi.json",
        "--checks=all",
        f"--seed={SEED}",
        f"--max-examples={EXAMPLES_PER_OPERATION}",
        "--workers=1",
        "--generation-database=none",
        "--output-truncate=true",
        "--no-color",
    ]
    command += [f"--header=Authorization: {server.headers['Authorization']}"]
    command += [f"--exclude-path={path}" for path in _streaming_paths(server)]

    run = subprocess.run(command, capture_output=True, text=True, timeout=240, cwd=tmp_path)

    report = run.stdout[-6000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    assert "Stateful" in run.stdout and "No issues found" in run.stdout, report
