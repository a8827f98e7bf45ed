"""Reaching the kernel: a sandboxed child process (:mod:`.child`, :mod:`.isolation`,
:mod:`.workspace`), or, in a browser, a worker (see ``grader.site``)."""
