"""The call server: the only grader code that runs in the learner's process.

The grader's trusted process never imports learner code. It starts a fresh interpreter in a
sandbox (see :mod:`grader.sandbox`) that runs this package, and talks to it over a pipe in
JSON lines: "call append_event with these arguments and keep the result as log3", "read
log3 again", "try to change e1.payload in place and read the log after each change". The
child answers with plain observations (what came back, what was raised, what a re-read
showed); the trusted process compares them with its own oracle and decides every verdict.

This package therefore uses the standard library only, and imports nothing outside itself:
the sandbox holds a copy of it and of the submission, and nothing else of the kit. Two of its
modules are shared with the trusted side: :mod:`.codec` (the JSON tags) and :mod:`.text`
(values written as Python).

Why the child is trusted with nothing: learner code runs in it and can patch anything in it,
this package included. A patched call server can only make its own answers wrong, and every
answer is judged against the oracle, so the only way to earn points is to give the answers a
correct implementation gives.
"""
