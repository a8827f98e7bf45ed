"""The browser's transport without a browser: what it believes of a kernel worker's answers.

A fake bridge plays the engine worker's JavaScript: it reads the key from the boot payload,
as the kernel does, and answers with lines it signs (or forges).
"""

from __future__ import annotations

import json
import marshal
from hashlib import blake2b
from typing import Any

import pytest

from grader.engine.learner import KernelStopped, StopKind, TaskLimits
from grader.transport.worker import WorkerKernel

FAR = float("inf")
LIMITS = TaskLimits(cpu_seconds=30.0, load_seconds=7.0)


class FakeBridge:
    """Answers each call with the next scripted answer, signing ``sign`` lines."""

    def __init__(self, *answers: dict[str, Any]) -> None:
        self.answers = list(answers)
        self.key = b""
        self.stopped = 0

    def start(self, boot: bytes, files: dict[str, str], seconds: float) -> dict[str, Any]:
        sources, config = marshal.loads(boot)
        assert [name for name, _ in sources][-1] == "<kernel:messages>"
        self.key = config["key"]
        return self._next()

    def request(self, data: bytes, seconds: float, stall: float) -> dict[str, Any]:
        return self._next()

    def stop(self) -> None:
        self.stopped += 1

    def _next(self) -> dict[str, Any]:
        answer = dict(self.answers.pop(0))
        answer["lines"] = [self.signed(line) for line in answer.get("lines", [])]
        return answer

    def signed(self, line: Any) -> str:
        if isinstance(line, str):
            return line  # sent as it is: a forgery
        body = json.dumps(line, separators=(",", ":")).encode()
        return blake2b(body, key=self.key, digest_size=16).hexdigest() + " " + body.decode()


def _kernel(bridge: FakeBridge) -> WorkerKernel:
    return WorkerKernel(bridge, {"event_log.py": ""}, ("create_event_log",))


def test_a_ready_kernel_answers_a_request_with_its_parts_and_closing_word() -> None:
    bridge = FakeBridge(
        {"lines": [{"seq": 0, "ready": {}}]},
        {"lines": [{"seq": 1, "part": {"value": 1}}, {"seq": 1, "done": {"reports": []}}]},
    )
    kernel = _kernel(bridge)
    assert kernel.start(LIMITS, FAR) == {"seq": 0, "ready": {}}
    request = {"steps": [("create", "log0")], "count": 1}
    assert kernel.request(request, FAR) == ([{"value": 1}], {"seq": 1, "done": {"reports": []}})
    assert kernel.stop() == 0.0  # a browser counts no CPU time
    assert bridge.stopped == 1


def test_a_line_without_the_kernels_mac_is_a_forgery_and_ends_the_worker() -> None:
    forged = '00112233445566778899aabbccddeeff {"seq":1,"done":{}}'
    bridge = FakeBridge({"lines": [{"seq": 0, "ready": {}}]}, {"lines": [forged]})
    kernel = _kernel(bridge)
    kernel.start(LIMITS, FAR)
    with pytest.raises(KernelStopped) as stopped:
        kernel.request({"steps": []}, FAR)
    assert stopped.value.kind is StopKind.FORGED
    assert not kernel.alive and bridge.stopped == 1


def test_a_kernel_past_its_deadline_stops_with_the_parts_before_and_where_it_was() -> None:
    bridge = FakeBridge(
        {"lines": [{"seq": 0, "ready": {}}]},
        {"lines": [{"seq": 1, "part": {"value": 1}}], "stopped": "timed_out", "progress": [1, 3]},
    )
    kernel = _kernel(bridge)
    kernel.start(LIMITS, FAR)
    with pytest.raises(KernelStopped) as stopped:
        kernel.request({"steps": [("create", "a"), ("create", "b")], "count": 2}, FAR)
    assert (stopped.value.kind, stopped.value.parts, stopped.value.progress) == (
        StopKind.OVERRUN,
        [{"value": 1}],
        (1, 3, 0, 0),
    )
    assert not kernel.alive


def test_an_answer_to_another_request_is_not_believed() -> None:
    bridge = FakeBridge({"lines": [{"seq": 0, "ready": {}}]}, {"lines": [{"seq": 7, "done": {}}]})
    kernel = _kernel(bridge)
    kernel.start(LIMITS, FAR)
    with pytest.raises(KernelStopped, match="broken"):
        kernel.request({"steps": []}, FAR)
