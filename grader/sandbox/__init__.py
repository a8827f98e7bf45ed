"""Running learner code in a separate, freshly started, sandboxed interpreter.

* :mod:`.workspace`: from a target name to a private copy of its code, next to the call server;
* :mod:`.backends`: the command that starts the child, in bubblewrap or without a sandbox;
* :mod:`.child`: the trusted end of the pipe, with deadlines and size caps.

The other end of the pipe is :mod:`grader.callserver`.
"""
