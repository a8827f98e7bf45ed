"""The engine's and the front ends' words (each task's own are in its folder).

``EN`` is the source. ``ZH`` maps each id to ``(fingerprint of the English, translation)``;
see :func:`grader.i18n.fingerprint`.
"""

from __future__ import annotations

EN = {
    # --- statuses: what a learner reads for each status code ----------------------------
    "status.passed": "passed",
    "status.failed": "failed",
    "status.not_implemented": "not implemented yet",
    "status.timed_out": "timed out",
    "status.error": "error",
    "status.tampered": "tampered",
    # --- what a call did, and what it should have done ----------------------------------
    "outcome.returned": "returned {value}",
    "outcome.expected": "expected {value}",
    "outcome.raised": "raised {kind}: {message}",
    "outcome.raised_at": "raised {kind}: {message} (at {where})",
    "outcome.refused_valid": "but this append is valid: append_event must accept it",
    "outcome.not_a_pair": "returned {value}, which is not a pair (new_log, event)",
    "outcome.needs_attribute": "an event needs the attribute {name}; it returned {value}",
    "outcome.needs_mapping": "event.payload must be a mapping; it returned {value}",
    "outcome.needs_sequence": "the result must be a sequence (a tuple or a list); it returned {value}",
    "outcome.too_large": "the value returned is too large to compare (millions of items)",
    "outcome.called_exit": "called sys.exit({code}): a function must return or raise, never exit",
    "outcome.raised_control": "raised {kind}: a function must return or raise an Exception",
    "outcome.in_loop": "in the loop's round {number}:",
    "outcome.read_before": "before: {value}",
    "outcome.read_after": "after:  {value}",
    "outcome.expected_value_error": "expected: raises ValueError (or a subclass) and appends nothing",
    "outcome.returned_instead_of_raising": "returned normally instead of raising ValueError",
    "outcome.timed_out": (
        "this call did not return within {seconds:g} seconds (an endless loop?); the other tasks "
        "were still graded"
    ),
    "outcome.died": (
        "the process running your code stopped during this call (exit code {code}): a function "
        "must not call os._exit() or crash the interpreter"
    ),
    "outcome.not_implemented": "not implemented yet",
    "outcome.not_implemented_task": "{functions}: not implemented yet; this task needs it.",
    "outcome.not_implemented_tasks": "{functions}: not implemented yet; this task needs them.",
    "outcome.grader_bug": "the grader itself failed ({kind}: {message}); please report this",
    "outcome.tampered": "{detail} ({event}) at {where}",
    # --- why a task ended in trouble rather than a broken promise -----------------------
    "cause.timed_out": "A call did not return in time.",
    "cause.task_timed_out": (
        "This task ran out of time: your functions are too slow for the grader's examples "
        "(hundreds of events), or one of them loops."
    ),
    "cause.died": "The process running your code stopped.",
    "cause.exited": "Your code called exit().",
    "cause.control": "Your code raised an exception that stops programs (KeyboardInterrupt, ...).",
    "cause.memory": "Your code ran out of memory.",
    "cause.too_large": "Your code returned a value too large to compare.",
    "cause.broken": (
        "The process running your code answered something the grader cannot read: code that "
        "writes into the grader's channel breaks the grading."
    ),
    "cause.forged": (
        "The process running your code sent an answer the grader did not write: code that "
        "writes into the grader's channel is tampering."
    ),
    "cause.tampered": (
        "Your code tried to reach the grader (or the system) in a way no solution needs, so it "
        "gets no points. What it tried:"
    ),
    "cause.reload": "A fresh process could not load your code again.",
    "cause.grader": "The grader itself failed; please report this.",
    "hint.cause.timed_out.1": (
        "A call never returned: look for a loop whose condition never changes, or recursion "
        "without an end, in the call shown last."
    ),
    "hint.cause.timed_out.2": (
        "Run the calls shown above yourself; if they only get slow, look for work that grows "
        "with the square of the log (copying it on every step of a loop)."
    ),
    "hint.cause.error.1": (
        "A function must return a value or raise an exception: never exit, never end the "
        "process, never write into the grader's channel."
    ),
    "hint.cause.error.2": "Run the calls shown above yourself and look at what happens.",
    "hint.cause.tampered.1": (
        "Solutions need none of this: remove the code named above and grade again."
    ),
    "hint.cause.tampered.2": "The standard library's ordinary modules (copy, json, dataclasses, ...) are all you need.",
    "hint.not_implemented.1": "Write the functions this task names; the docstrings say what each must do.",
    "hint.not_implemented.2": "Work in order: task 1's functions first, then one more function per task.",
    # --- notes --------------------------------------------------------------------------
    "note.flaky": (
        "This failure does not happen every time the same calls are made: your functions may "
        "keep state between calls (a global variable, a cache keyed by id(), randomness)."
    ),
    "note.function_of_task": "The call that went wrong is {function}, written in task {number} ({name}).",
    "note.written_in_task": "{function} is written in task {number} ({name}), which comes first.",
    # --- loading ------------------------------------------------------------------------
    "load.heading": "Could not load {target}.",
    "load.not_found": "No module or file named {target} was found.",
    "load.too_large": "The submission is too large: at most {files} files and {size} MiB are graded.",
    "load.too_deep": "The submission's folders are nested too deep: at most {depth} levels are graded.",
    "load.unreadable": "{name} is a file with several hard links: copy it as a plain file.",
    "load.syntax": "SyntaxError in {where}: {message}\n    {text}",
    "load.raised": "Importing it raised {kind}: {message} ({where})",
    "load.missing": "It does not define {names}.",
    "load.exit": "Importing it called sys.exit({code}).",
    "load.memory": "Importing it ran out of memory.",
    "load.not_stdlib": (
        "It imports {module}, which is not part of the standard library: a submission may use "
        "the standard library only (and its own modules)."
    ),
    "load.timed_out": "Importing it did not finish within {seconds:g} seconds.",
    "load.died": "The process stopped while importing it (exit code {code}).",
    "load.broke": "While it was imported, its process wrote into the grader's channel.",
    "load.tampered": "While it was imported, it tried to reach the grader or the system (see the reports).",
    # --- the report -----------------------------------------------------------------------
    "report.title": "Grading {target}",
    "report.task": "{number}. {name}",
    "report.broken": "Broken promise: {sentence}",
    "report.of_function": "(a promise of {function})",
    "report.case": "Smallest case that shows it:",
    "report.hint": "Hint: {hint}",
    "report.total": "Total: {earned}/{possible} points",
    "report.all_passed": "Every task passes. Well done.",
    "report.asked_passed": "The tasks graded pass ({graded} of {total}); run without --task to grade them all.",
    "report.next": "Fix the first task that is not passing, then run the grader again.",
    "report.output": "Your code printed:",
    "report.isolation.bwrap": "",
    "report.isolation.uid": (
        "Graded without bubblewrap: learner code ran as a user of its own (the grader's files "
        "and other submissions unreadable to it)."
    ),
    "report.isolation.none": (
        "Graded without a sandbox: learner code ran as your own user, in a separate interpreter "
        "that sees only the standard library and its own copy."
    ),
    # --- hints and the learner loop ----------------------------------------------------
    "hint.heading": "{task}: {sentence}",
    "hint.more": "Stuck still? Run with --hint again for a stronger hint.",
    "hint.last": "That is the strongest hint. The report's smallest case shows exactly which call goes wrong.",
    "hint.none_needed": "Every task passes: no hint needed.",
    "watch.progress": "Progress: {done} of {total} tasks done.",
    "watch.all_done": "Every task is done. Well done!",
    "watch.next_task": "Next: {task}.",
    "watch.waiting": "Watching {paths}: save a file to grade again (Ctrl+C stops).",
    "watch.regrading": "A file was saved: grading again.",
    "watch.stopped": "Stopped watching.",
    # --- the command line ----------------------------------------------------------------
    "cli.description": "Grade the five event-log functions by their behaviour.",
    "cli.subcommands": (
        "Instructor commands: 'python -m grader batch SUBMISSIONS_DIR --out OUT_DIR' grades a "
        "class; 'python -m grader gradescope OUT.zip' writes a Gradescope autograder; "
        "'python -m grader release OUT_DIR' (in the kit, not in a learner's copy) writes the "
        "learner's copy. Add --help to any of them for its options."
    ),
    "cli.target": (
        "exercises (default), solutions, a dotted module name, a folder (a package, a folder of "
        "exercise files, or a folder holding one .py file) or a .py file defining the five "
        "functions (default from ${env} when set)"
    ),
    "cli.task": "grade only this task, by number or id ({tasks}); repeat for several",
    "cli.watch": "grade again every time a file of the target is saved (Ctrl+C stops)",
    "cli.hint": "show a stronger hint for the first task that is not passing yet",
    "cli.lang": "language of every message: en or zh (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)",
    "cli.json": "also write the results as JSON, in the format --format names",
    "cli.format": "the results file's format: exercism (test-runner interface v3, the default) or gradescope (results.json)",
    "cli.no_sandbox": "run learner code without a sandbox (the same as --isolation none)",
    "cli.unknown_task": "no task is called {task}: give a task's number or its id",
    "cli.release_missing": "release is a maintainer's tool: it is in the kit, not in a learner's copy.",
    "cli.pytest_target": "what to grade: exercises (default), solutions, a dotted module name, or a path; falls back to ${env}",
    # --- settings (every front end's options come from these) ---------------------------
    "settings.example_seconds": "seconds one example may take before the call running then counts as timed out (default {default:g})",
    "settings.task_seconds": "seconds one task may take in all (default {default:g})",
    "settings.submission_seconds": "seconds one submission may take in all, every task together (default {default:g})",
    "settings.load_seconds": "seconds importing the submission may take (default {default:g})",
    "settings.isolation": "how learner code is isolated: auto (bubblewrap if it works, else a user of its own when root, else none), bwrap, uid or none (default {default})",
    "settings.memory_mb": "memory for the submission's process, in MiB (default {default})",
    "settings.cpu_seconds": "CPU seconds for the submission's process (default {default})",
    "settings.lanes": "tasks graded at once, each in a process of its own (default {default}: one per core, at most 2)",
    # --- isolation ---------------------------------------------------------------------------
    "isolation.bwrap_missing": "bubblewrap (bwrap) is not installed or cannot create a sandbox here.",
    "isolation.uid_needs_root": "uid isolation runs learner code as a user of its own, which only root can do.",
    "isolation.uid_unreadable_python": (
        "uid isolation cannot run here: the interpreter's files are under {path}, which other "
        "users cannot enter (a Python installed in a private home). Install bubblewrap, or run "
        "with a Python that other users can read."
    ),
    "isolation.uid_system_python": (
        "Learner code ran with {python}: this grader's own Python lives where other users "
        "cannot read it."
    ),
    # --- the batch --------------------------------------------------------------------------
    "cli.batch.description": "Grade every submission in a folder, each in its own sandbox, and write a gradebook.",
    "cli.batch.submissions": "folder of submissions: .py files, or folders holding one",
    "cli.batch.out": "folder for gradebook.csv, results/, summary.md and logs/ (replaced whole when the batch is done)",
    "cli.batch.workers": "submissions graded at once (default: one per core)",
    "cli.batch.no_sandbox": "grade without isolation (only where none can be had; every output then says so)",
    "cli.batch.no_progress": "do not draw the progress bar",
    "cli.batch.not_a_folder": "{path} is not a folder of submissions.",
    "cli.batch.no_sandbox_available": (
        "Cannot grade safely: bubblewrap (bwrap) is not installed or cannot create a sandbox "
        "here, and uid isolation needs root. Install bubblewrap (Debian/Ubuntu: sudo apt "
        "install bubblewrap) and try again, or pass --no-sandbox to grade without isolation."
    ),
    "cli.batch.closed": "Closed to other users while grading (reopened after): {paths}",
    "cli.batch.done": "Graded {count} submissions in {seconds:.0f} s: {statuses}.",
    "cli.batch.wrote": "Wrote {path}",
    "cli.batch.often_broken": "Broken by {count}: [{task}] {sentence}",
    "batch.progress": "Grading submissions",
    "batch.isolation.bwrap": (
        "Learner code ran in a bubblewrap sandbox: its own copy of the submission and the "
        "standard library only, no network, no /proc, one process, and the grader's guard."
    ),
    "batch.isolation.uid": (
        "Learner code ran as a user of its own, without namespaces: the kit, the class folder "
        "and the outputs were closed to it, and the grader's guard refused files, sockets and "
        "processes; its network was its own only where unshare works."
    ),
    "batch.isolation.none": (
        "This batch ran WITHOUT a sandbox (--no-sandbox): learner code ran as the grader's own "
        "user, held back only by the grader's guard; grades are only as trustworthy as the "
        "submissions."
    ),
    "batch.summary.title": "Batch summary",
    "batch.summary.count": "{count} submissions, graded in {seconds:.0f} s.",
    "batch.summary.status": "status",
    "batch.summary.submissions": "submissions",
    "batch.summary.tampered": "Submissions caught tampering (no points)",
    "batch.summary.most_failed": "Promises the class broke most often",
    "batch.summary.none_failed": "No submission broke a promise.",
    "batch.summary.failed_by": "broken by",
    "batch.summary.promise": "promise",
    "batch.summary.task": "task",
    "batch.ungraded.no_submission": "Not graded: the folder holds no single .py file or package.",
    "batch.ungraded.not_a_file": "Not graded: neither a regular file nor a folder.",
    "batch.ungraded.unreadable": "Not graded: it could not be read ({error}).",
    "batch.ungraded.grader_died": "Not graded: the grading process for it stopped twice.",
    "batch.note.same_name": "{entry} has the same name as {other}",
    # --- Gradescope ----------------------------------------------------------------------------
    "cli.gradescope.description": "Write a Gradescope autograder (setup.sh, run_autograder and the grader) as a zip to upload.",
    "cli.gradescope.zip": "where to write the zip",
    "cli.gradescope.no_folder": "The folder {path} does not exist: create it first, or write the zip elsewhere.",
    "cli.gradescope.wrote": "Wrote {path}: upload it as the assignment's autograder (Configure Autograder, Zip file upload).",
}

ZH: dict[str, tuple[str, str]] = {}
