"""The engine's and the front ends' words (each task's own are in its folder).

``EN`` is the source. ``ZH`` maps each id to ``(fingerprint of the English, translation)``;
see :func:`grader.i18n.fingerprint`. The Chinese follows :data:`GLOSSARY`, the chapter's own
words: a learner who read it in Chinese meets the same terms here.
"""
# ruff: noqa: RUF001 - the Chinese sentences use Chinese punctuation

from __future__ import annotations

# The glossary every translation follows, here and beyond the grader; re-exported for the
# catalog tests.
from grader.i18n.glossary import GLOSSARY, NEVER  # noqa: F401

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
    "outcome.in_loop": "in {loop}, the append number {number}:",
    "outcome.read_before": "before: {value}",
    "outcome.read_after": "after:  {value}",
    "outcome.expected_value_error": "expected: raises ValueError (or a subclass) and appends nothing",
    "outcome.returned_instead_of_raising": "returned normally instead of raising ValueError",
    "outcome.timed_out": "this call used its {seconds:g} seconds of CPU time without returning (an endless loop?); the other tasks were still graded",
    "outcome.died": (
        "the process running your code stopped during this call (exit code {code}): a function "
        "must not call os._exit() or crash the interpreter"
    ),
    "outcome.not_implemented": "not implemented yet",
    "outcome.not_implemented_task": "{functions}: not implemented yet; this task needs it.",
    "outcome.not_implemented_tasks": "{functions}: not implemented yet; this task needs them.",
    "outcome.grader_bug": "the grader itself failed ({kind}: {message}); please report this",
    "outcome.kernel_fault": "the grading code in your program's process reported a fault ({message}): if your code does nothing unusual, show this to your instructor",
    "outcome.tampered": "{detail} ({event}) at {where}",
    # --- why a task ended in trouble rather than a broken promise -----------------------
    "cause.timed_out": "A call used its share of CPU time without returning.",
    "cause.task_timed_out": "This task used up its CPU time: your functions are too slow for the grader's examples (up to about a thousand events), or one of them loops.",
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
        "without an end."
    ),
    "hint.cause.timed_out.2": (
        "Call your functions yourself on a log of a few thousand events; if they only get "
        "slow, look for work that grows with the square of the log (copying it on every step "
        "of a loop)."
    ),
    "hint.cause.error.1": (
        "A function must return a value or raise an exception: never exit, never end the "
        "process, never write into the grader's channel."
    ),
    "hint.cause.error.2": "Call your functions yourself in a plain Python session and watch what happens to it.",
    "hint.cause.tampered.1": (
        "Solutions need none of this: remove the code that reaches for files, processes, "
        "sockets or the grader, and grade again."
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
    "load.no_time_left": (
        "No time was left to import it again: the time this submission is given is used up (by "
        "this task or the ones before it). Grade this task on its own (--task) to see its result."
    ),
    "load.died": "The process stopped while importing it (exit code {code}).",
    "load.broke": "While it was imported, its process wrote into the grader's channel.",
    "load.tampered": "While it was imported, it tried to reach the grader or the system.",
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
    "report.isolation.browser": "Graded in your browser, as a self-check: your code ran in a Web Worker of its own (Pyodide), in a browser you control, with wall-clock time limits. An instructor's grade comes from python -m grader batch or the Gradescope autograder.",
    # --- the page (python -m grader site) ---------------------------------------------
    "site.title": "Agent persistence: the exercises",
    "site.loading_python": "Loading Python...",
    "site.loading_grader": "Loading the grader...",
    "site.ready": "Ready.",
    "site.unsupported": "This browser cannot grade here: it lacks JSPI (WebAssembly's stack switching, in Chromium 137 and later). Use a recent Chrome, Edge or Chromium, or the local kit's grader (python -m grader).",
    "site.failed": "The grader did not start: {detail}",
    "site.check_all": "Check all tasks",
    "site.check_task": "Check this task",
    "site.hint": "Hint",
    "site.grading": "Grading...",
    "site.graded": "Graded: {earned}/{possible} points.",
    "site.download": "Download the three files",
    "site.upload": "Upload files",
    "site.reset": "Start again from the stubs",
    "site.reset_confirm": "Replace your code in all three files with the stubs?",
    "site.self_check": "A grade here is a self-check: your code runs in your own browser, which you control. An instructor's grade comes from python -m grader batch or the Gradescope autograder.",
    "site.language": "Language",
    "site.saved": "Your code is kept in this browser.",
    "site.uploaded": "Loaded {names}.",
    "site.upload_refused": "{name} is not one of the exercise files (event_log.py, sessions.py, replay.py).",
    "site.hint_more": "Stuck still? Press Hint again for a stronger hint.",
    "site.error": "Could not grade: {detail}",
    "site.exercise": "The exercise",
    "site.report": "Report",
    "site.no_report": "Press Check to grade your code: the report appears here.",
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
        "'python -m maintainer release OUT_DIR' (in the kit, not in a learner's copy) writes the "
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
    "cli.lang": "language of every message, for this run: en or zh (default: the kit's, set with python -m grader lang, else the locale's)",
    "cli.json": "also write the results as JSON, in the format --format names",
    "cli.format": "the results file's format: exercism (test-runner interface v3, the default) or gradescope (results.json)",
    "cli.no_sandbox": "run learner code without a sandbox (the same as --isolation none)",
    "cli.unknown_task": "no task is called {task}: give a task's number or its id",
    "cli.interrupted": "Grading stopped (Ctrl+C): no report, and no results file written.",
    "cli.release_missing": "release is a maintainer's tool: run 'python -m maintainer release OUT_DIR' in the kit (a learner's copy has none).",
    "cli.pytest_target": "what to grade: exercises (default), solutions, a dotted module name, or a path; falls back to ${env}",
    # --- settings (every front end's options come from these) ---------------------------
    "settings.example_seconds": "CPU seconds one example may use before the call running then counts as timed out; where CPU time cannot be measured, wall-clock seconds (default {default:g})",
    "settings.task_seconds": "CPU seconds one task may use in all (default {default:g})",
    "settings.submission_seconds": "CPU seconds one submission may use in all, every task together; where CPU time cannot be measured, wall-clock seconds (default {default:g})",
    "settings.load_seconds": "CPU seconds importing the submission may use (default {default:g})",
    "settings.isolation": "how learner code is isolated: auto (bubblewrap if it works, else a user of its own when root, else none), bwrap, uid or none (default {default})",
    "settings.memory_mb": "memory for the submission's process, in MiB (default {default})",
    "settings.cpu_seconds": "CPU seconds for the submission's process (default {default})",
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
    "isolation.uid_network_open": "Learner code ran as a user of its own, but the network was not cut off here (unshare is not available): only the grader's guard refused its sockets.",
    # --- the batch --------------------------------------------------------------------------
    "cli.batch.description": "Grade every submission in a folder, each in its own sandbox, and write a gradebook.",
    "cli.batch.submissions": "folder of submissions: .py files, or folders holding one",
    "cli.batch.out": "folder for gradebook.csv, results/, summary.md and logs/ (replaced whole when the batch is done)",
    "cli.batch.workers": "submissions graded at once (default: one per core)",
    "cli.batch.no_sandbox": "grade without isolation (only where none can be had; every output then says so)",
    "cli.batch.no_progress": "do not draw the progress bar",
    "cli.batch.not_a_folder": "{path} is not a folder of submissions.",
    "cli.batch.stopped": "Batch stopped ({signal}): nothing was written to {out}, and no grading is left running.",
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
    # --- argparse's own words (grader.i18n.arguments) --------------------------------------------
    "argparse.usage": "usage: ",
    "argparse.options": "options",
    "argparse.positional": "positional arguments",
    "argparse.help": "show this help message and exit",
    "argparse.error": "%(prog)s: error: %(message)s\n",
    "argparse.argument": "argument %(argument_name)s: %(message)s",
    "argparse.invalid_choice": "invalid choice: %(value)r (choose from %(choices)s)",
    "argparse.invalid_value": "invalid %(type)s value: %(value)r",
    "argparse.expected_one": "expected one argument",
    "argparse.expected_at_most_one": "expected at most one argument",
    "argparse.expected_at_least_one": "expected at least one argument",
    "argparse.expected_count": "expected %s arguments",
    "argparse.required": "the following arguments are required: %s",
    "argparse.unrecognized": "unrecognized arguments: %s",
    "argparse.not_allowed_with": "not allowed with argument %s",
    "argparse.one_required": "one of the arguments %s is required",
    "argparse.ambiguous": "ambiguous option: %(option)s could match %(matches)s",
    "argparse.ignored_value": "ignored explicit argument %r",
    "argparse.cannot_open": "can't open '%(filename)s': %(error)s",
    "argparse.unknown_command": "unknown parser %(parser_name)r (choices: %(choices)s)",
    # --- the kit's language (python -m grader lang) ----------------------------------------------
    "cli.learner_commands": "Learner commands: 'python -m grader lang zh' sets the language of the whole kit (the tools and the exercises' docstrings); 'python -m grader site --serve' serves the exercises in a browser.",
    "cli.lang.description": "Set the language of the whole kit, whatever the locale: the grader, python -m sqlite_demo, the live page, the browser site, and the docstrings of the stubs in exercises/.",
    "cli.lang.language": "en or zh; auto forgets the choice, so that the locale decides again. Without it: which language is in use, and why.",
    "cli.lang.leave_exercises": "change the language of the tools only: the files in exercises/ stay as they are",
    "lang.name.en": "English",
    "lang.name.zh": "Chinese",
    "lang.now.chosen": "The kit speaks {name}: chosen with python -m grader lang, kept in {path}.",
    "lang.now.passed_on": "This run speaks {name}: the variable KIT_LANGUAGE says so.",
    "lang.now.edition": "The kit speaks {name}: this copy's language.",
    "lang.now.locale": "The kit speaks {name}: the locale decides ({variables}).",
    "lang.now.how": "To choose: python -m grader lang zh (or en).",
    "lang.set": "The kit now speaks {name}, whatever the locale: the choice is kept in {path}.",
    "lang.forgotten": "The kit's language is no longer chosen: the locale decides again ({name} here).",
    "lang.stubs_switched": "The stubs now have {name} docstrings: {files}.",
    "lang.stubs_already": "The stubs in exercises/ already have {name} docstrings.",
    "lang.stubs_edited": "Nothing changed: you have edited {files}, so it is neither stub. Your code stays exactly as it is.",
    "lang.stubs_edited_how": "To change the language of the tools only, run: python -m grader lang {code} --leave-exercises",
    "lang.stubs_left": "The files in exercises/ stay as they are.",
    "lang.no_stubs": "This copy holds its stubs in one language only, so the files in exercises/ stay as they are.",
    "lang.cannot_write": "Cannot keep the choice in {path}: {error}",
    "lang.separator": ", ",
    "stub.not_implemented": "{function} is not implemented yet",
    # --- the browser site's command (python -m grader site) --------------------------------------
    "cli.site.description": "Build the exercises' static site: graded in the browser, nothing to install.",
    "cli.site.out": "the folder to build the site in",
    "cli.site.serve": "serve it on 127.0.0.1",
    "cli.site.port": "the port to serve on (8000)",
    "cli.site.no_folder": "give the folder to build the site in, or --serve",
    "cli.site.not_a_port": "{value!r} is not a port: give 1 to 65535",
    "cli.site.cannot_build": "cannot build the site: {error}",
    "cli.site.built": "built {folder}: {files} files, {size:.1f} MiB",
    "cli.site.cannot_serve": "cannot serve on 127.0.0.1:{port}: {error}; try --port",
    "cli.site.serving": "serving {url} (Ctrl+C stops)",
    "cli.site.stopped": "stopped",
    "site.build.is_a_file": "{path} is a file: give a folder for the site",
    "site.build.not_empty": "{path} is not empty and holds no site built before: give an empty or new folder",
    "site.build.hypothesis": 'hypothesis {installed} is installed, but every grade is made with {pinned}: run pip install -e ".[dev]" again',
    "site.build.no_npm": "npm is needed to build the site: apt-get install nodejs npm",
    "site.build.npm_failed": "npm ci failed in {folder}:\n{output}",
    "site.build.esbuild_failed": "esbuild could not bundle the editor:\n{output}",
    "site.build.edited_stubs": "this copy is not a git checkout, and exercises/{name} is no longer a stub: the site would hand out your work as the exercise; build it from a clone of the kit",
    # --- the folders any user may write (uid isolation) ---------------------------------------
    "batch.folders.private": (
        "Each submission wrote only in a tmpfs of its own, mounted over the folders any user "
        "may write here ({folders}) and over its temporary folder: at most {files} files and "
        "{mib} MiB, gone when its grading ended."
    ),
    "batch.folders.shared": (
        "The folders any user may write here ({folders}) were shared with the machine (no "
        "private mounts here): what each submission left there was measured after every call, "
        "stopped past {files} files or {mib} MiB, and removed when its grading ended."
    ),
    "batch.note.write_budget": (
        "held {files} files and {size} bytes where it may write, past the budget of "
        "{max_files} files and {max_size} bytes"
    ),
    # --- the grade's own time and trouble -----------------------------------------
    "outcome.timed_out_wall": "this call did not return within {seconds:g} seconds on the clock (here CPU time cannot be counted; an endless loop?); the other tasks were still graded",
    "outcome.blocked": "this call stopped computing and waited (on a lock, a pipe, input?) far longer than a call may take: a function must return or raise, never wait",
    "outcome.answered_differently": "asked the same calls again, your code answered differently: the first time, this call's answer was not a correct implementation's",
    "cause.blocked": "A call waited (blocked) instead of returning.",
    "cause.machine_busy": "The machine was too busy to finish grading this task. This is the grader's problem, not your code's: grade it again when the machine is quieter.",
    "hint.cause.blocked.1": "A call waited for something that never came: look for a lock acquired twice, a read from a pipe or from input(), in the call shown last.",
    "hint.cause.blocked.2": "Your functions need no waiting at all: they only compute on the values they are given.",
    "hint.cause.machine_busy.1": "Nothing to fix in your code for this: grade it again later.",
    "hint.cause.machine_busy.2": "If it happens again on a quiet machine, show the report to your instructor.",
    "load.machine_busy": "The machine was too busy to import it in time. This is the grader's problem, not the submission's: grade it again when the machine is quieter.",
    "note.wall_clock_limits": "Time limits here are seconds on the clock (this place cannot count CPU time): on a busy machine a correct but slow submission can time out.",
    # --- a comment in a shown case ------------------------------------------------
    "outcome.raises": "raises {error}",
    # --- added --------------------------------------------------------------------
    "load.not_in_sandbox": "It imports {module}, which the grader's sandbox does not have: it could write files, or read the grader's own frames, where the guard cannot see. Keep the log in plain Python values, as the exercises do.",
}

#: The Chinese: id -> (fingerprint of the English it translates, translation); see
#: :func:`grader.i18n.fingerprint`. One entry a line, in the order of EN.
# fmt: off
ZH: dict[str, tuple[str, str]] = {
    "status.passed": ("284d1e8c", "通过"),
    "status.failed": ("5d28a90f", "未通过"),
    "status.not_implemented": ("d0f98aaa", "尚未实现"),
    "status.timed_out": ("3dcd80f1", "超时"),
    "status.error": ("ca00fccf", "出错"),
    "status.tampered": ("d121be31", "篡改判题"),
    "outcome.returned": ("2498af49", "返回了 {value}"),
    "outcome.expected": ("dd5f417e", "应为 {value}"),
    "outcome.raised": ("4dbecd54", "抛出了 {kind}: {message}"),
    "outcome.raised_at": ("3926271d", "抛出了 {kind}: {message}（位置：{where}）"),
    "outcome.refused_valid": ("2e0cc72c", "但这次追加是合法的，append_event 应当接受它"),
    "outcome.not_a_pair": ("50699517", "返回了 {value}，不是 (new_log, event) 这样的二元组"),
    "outcome.needs_attribute": ("3ba344ac", "事件必须有 {name} 属性，但返回的是 {value}"),
    "outcome.needs_mapping": ("5b7f170b", "event.payload 必须是映射（Mapping），但返回的是 {value}"),
    "outcome.needs_sequence": ("880caadc", "结果必须是序列（元组或列表），但返回的是 {value}"),
    "outcome.too_large": ("767d4ead", "返回值太大（有上百万个元素），没法比较"),
    "outcome.called_exit": ("942f6f6f", "调用了 sys.exit({code})：函数只能返回或抛出异常，不能退出"),
    "outcome.raised_control": ("d0290000", "抛出了 {kind}：函数只能返回，或者抛出 Exception 及其子类"),
    "outcome.in_loop": ("e7266883", "{loop} 中的第 {number} 次追加："),
    "outcome.read_before": ("e08be8e3", "之前：{value}"),
    "outcome.read_after": ("99833a2e", "之后：{value}"),
    "outcome.expected_value_error": ("059bd264", "应当：抛出 ValueError（或其子类），并且不追加任何事件"),
    "outcome.returned_instead_of_raising": ("a7edd8e1", "正常返回了，没有抛出 ValueError"),
    "outcome.timed_out": ("3586851d", "这次调用用完了 {seconds:g} 秒的 CPU 时间还没有返回（死循环？）；其他任务照常判题"),
    "outcome.died": ("cd179ff2", "运行你代码的进程在这次调用中退出了（退出码 {code}）：函数里不能调用 os._exit()，也不能让解释器崩溃"),
    "outcome.not_implemented": ("d0f98aaa", "尚未实现"),
    "outcome.not_implemented_task": ("411f8125", "{functions} 尚未实现，这个任务要用到它。"),
    "outcome.not_implemented_tasks": ("c975537c", "{functions} 尚未实现，这个任务要用到它们。"),
    "outcome.grader_bug": ("9d04e5a0", "判题器自身出错了（{kind}: {message}），请报告这个问题"),
    "outcome.kernel_fault": ("30050596", "判题代码在你的程序进程里报告了故障（{message}）。如果你的代码没有做什么特别的事，请把这条信息给教师看"),
    "outcome.tampered": ("dc75dbe6", "{detail}（{event}），位置：{where}"),
    "cause.timed_out": ("89a03c69", "有一次调用用完了分给它的 CPU 时间，还没有返回。"),
    "cause.task_timed_out": ("66f4f37c", "这个任务用完了它的 CPU 时间：对判题器的示例（最多一千多个事件）来说，你的函数太慢，或者其中某个陷入了死循环。"),
    "cause.died": ("bedd931e", "运行你代码的进程退出了。"),
    "cause.exited": ("789876c0", "你的代码调用了 exit()。"),
    "cause.control": ("08469c18", "你的代码抛出了会让程序停下来的异常（KeyboardInterrupt 等）。"),
    "cause.memory": ("72d0a271", "你的代码耗尽了内存。"),
    "cause.too_large": ("c41f21d7", "你的代码返回的值太大，没法比较。"),
    "cause.broken": ("dbe696c2", "运行你代码的进程发回了判题器读不懂的内容：往判题器的通道里写东西的代码会破坏判题。"),
    "cause.forged": ("5ee23d54", "运行你代码的进程发来了一条不是判题器写的回答：往判题器的通道里写东西，就是篡改判题。"),
    "cause.tampered": ("f7c8b132", "你的代码试图以正常解答用不到的方式接触判题器（或系统），因此不得分。它尝试了："),
    "cause.reload": ("3f976795", "在新进程里重新加载你的代码时失败了。"),
    "cause.grader": ("81162ef8", "判题器自身出错了，请报告这个问题。"),
    "hint.cause.timed_out.1": ("4e4b91d0", "有一次调用一直没有返回：找找条件永远不变的循环，或者没有终止条件的递归。"),
    "hint.cause.timed_out.2": ("c45c1eba", "自己在几千个事件的日志上调用你的函数；如果只是变慢，找找随日志长度平方增长的开销（比如在循环的每一步都复制一遍日志）。"),
    "hint.cause.error.1": ("7033986f", "函数只能返回值或抛出异常：不要退出，不要结束进程，也不要往判题器的通道里写东西。"),
    "hint.cause.error.2": ("c70b63ce", "在普通的 Python 会话里自己调用你的函数，看看这个会话发生了什么。"),
    "hint.cause.tampered.1": ("a8286f81", "正常的解答用不到这些：删掉接触文件、进程、套接字或判题器的代码，然后重新判题。"),
    "hint.cause.tampered.2": ("cbdca09e", "标准库里的常规模块（copy、json、dataclasses 等）就够用了。"),
    "hint.not_implemented.1": ("36699fcf", "写出这个任务列出的函数；每个函数该做什么，docstring 里都写了。"),
    "hint.not_implemented.2": ("ff73cd9c", "按顺序来：先写任务 1 的函数，之后每个任务再多写一个函数。"),
    "note.flaky": ("1a8d0320", "同样的调用并不是每次都会出这个错：你的函数可能在调用之间保留了状态（全局变量、以 id() 为键的缓存、随机数）。"),
    "note.function_of_task": ("94a336c7", "出错的是 {function} 的调用，这个函数在任务 {number}（{name}）里编写。"),
    "note.written_in_task": ("01ef7d96", "{function} 要在前面的任务 {number}（{name}）里编写。"),
    "load.heading": ("8dac611d", "无法加载 {target}。"),
    "load.not_found": ("a2bc40b0", "找不到名为 {target} 的模块或文件。"),
    "load.too_large": ("862fb3b9", "这份作业太大：判题时最多只看 {files} 个文件、{size} MiB。"),
    "load.too_deep": ("db8f8942", "这份作业的文件夹嵌套太深：判题时最多只看 {depth} 层。"),
    "load.unreadable": ("d93bca3f", "{name} 有多个硬链接：请把它复制成一个普通文件。"),
    "load.syntax": ("a51d3970", "{where} 中有 SyntaxError：{message}\n    {text}"),
    "load.raised": ("4427501c", "导入时抛出了 {kind}: {message}（{where}）"),
    "load.missing": ("fa17c903", "它没有定义 {names}。"),
    "load.exit": ("e8466eaf", "导入时调用了 sys.exit({code})。"),
    "load.memory": ("dc0aeffd", "导入时内存耗尽。"),
    "load.not_stdlib": ("1c89f7ec", "它导入了 {module}，这不是标准库里的模块。作业只能用标准库（以及作业自己的模块）。"),
    "load.timed_out": ("889208cd", "导入没有在 {seconds:g} 秒内完成。"),
    "load.no_time_left": (
        "3ee8d334",
        "已经没有时间再导入一次了：这份作业的判题时间用完了（用在这个任务或前面的任务上）。"
        "单独判这个任务（--task）可以看到它的结果。",
    ),
    "load.died": ("3cfea145", "导入时进程退出了（退出码 {code}）。"),
    "load.broke": ("f054a72f", "导入过程中，它的进程往判题器的通道里写了东西。"),
    "load.tampered": ("89ae0eb4", "导入过程中，它试图接触判题器或系统。"),
    "report.title": ("ae3ed5d2", "判题：{target}"),
    "report.task": ("406b17c6", "{number}. {name}"),
    "report.broken": ("2370127b", "违反的约定：{sentence}"),
    "report.of_function": ("d4aaa0e7", "（{function} 的约定）"),
    "report.case": ("1ff8a1f3", "能复现问题的最小反例："),
    "report.hint": ("18ed0c53", "提示：{hint}"),
    "report.total": ("d1832918", "总分：{earned}/{possible}"),
    "report.all_passed": ("11ad42b3", "所有任务都通过了，干得好！"),
    "report.asked_passed": ("699d1333", "这次判的任务都通过了（{total} 个任务中的 {graded} 个）；去掉 --task 再运行，就会判全部任务。"),
    "report.next": ("b5d0700c", "先修好第一个未通过的任务，再运行一次判题器。"),
    "report.output": ("9ff3904f", "你的代码输出了："),
    "report.isolation.bwrap": ("e3b0c442", ""),
    "report.isolation.uid": ("68f02a8f", "这次判题没有用 bubblewrap：学习者代码以一个单独的用户身份运行（读不到判题器的文件，也读不到别人的作业）。"),
    "report.isolation.none": ("91ad5444", "这次判题没有用沙箱：学习者代码以你自己的用户身份，在一个单独的解释器里运行，只能看到标准库和它自己的那份副本。"),
    "report.isolation.browser": ("ef69a4bd", "这次判题在你的浏览器里进行，只是自我检查：你的代码运行在一个单独的 Web Worker（Pyodide）里，而浏览器由你掌控，时间限制按墙上时间计算。教师给的成绩来自 python -m grader batch 或 Gradescope 自动判题器。"),
    "site.title": ("5db188bd", "Agent 持久层：练习"),
    "site.loading_python": ("12107cba", "正在加载 Python……"),
    "site.loading_grader": ("c64e63f3", "正在加载判题器……"),
    "site.ready": ("e20846d2", "准备好了。"),
    "site.unsupported": ("52177248", "这个浏览器无法在这里判题：它不支持 JSPI（WebAssembly 的栈切换，Chromium 137 及以后的版本才有）。请使用较新的 Chrome、Edge 或 Chromium，或者使用本地版本的判题器（python -m grader）。"),
    "site.failed": ("d1609ac0", "判题器没有启动：{detail}"),
    "site.check_all": ("e52523bc", "检查全部任务"),
    "site.check_task": ("523fbb6f", "只检查这个任务"),
    "site.hint": ("a7b4cf9f", "提示"),
    "site.grading": ("e9960985", "正在判题……"),
    "site.graded": ("a09484a1", "判题完成：{earned}/{possible} 分。"),
    "site.download": ("2e54ee5d", "下载三个文件"),
    "site.upload": ("4118deee", "上传文件"),
    "site.reset": ("8f5c66dd", "恢复成初始的桩代码"),
    "site.reset_confirm": ("4ba63d4e", "要用初始的桩代码替换三个文件里你写的代码吗？"),
    "site.self_check": ("d4e96d16", "这里的成绩只是自我检查：你的代码运行在你自己掌控的浏览器里。教师给的成绩来自 python -m grader batch 或 Gradescope 自动判题器。"),
    "site.language": ("a4fe6526", "语言"),
    "site.saved": ("4f10636c", "你的代码保存在这个浏览器里。"),
    "site.uploaded": ("5497882f", "已载入 {names}。"),
    "site.upload_refused": ("5b69d344", "{name} 不是练习文件（event_log.py、sessions.py、replay.py）之一。"),
    "site.hint_more": ("ba87133f", "还是卡住了？再按一次“提示”，会得到更具体的提示。"),
    "site.error": ("d6efd9e7", "无法判题：{detail}"),
    "site.exercise": ("6c3e264f", "练习说明"),
    "site.report": ("b6ce788d", "报告"),
    "site.no_report": ("242180e2", "按“检查”给你的代码判题，报告会显示在这里。"),
    "hint.heading": ("d27fe4f0", "{task}：{sentence}"),
    "hint.more": ("693e4f9c", "还是卡住了？再加 --hint 运行一次，会得到更具体的提示。"),
    "hint.last": ("898c8999", "这已经是最具体的提示了。报告里的最小反例准确指出了是哪次调用出的错。"),
    "hint.none_needed": ("5989c901", "所有任务都通过了，不需要提示。"),
    "watch.progress": ("017064b4", "进度：已完成 {done}/{total} 个任务。"),
    "watch.all_done": ("e967951f", "所有任务都完成了，干得好！"),
    "watch.next_task": ("97e1372c", "下一个：{task}。"),
    "watch.waiting": ("3ffac082", "正在监视 {paths}：保存文件后会重新判题（按 Ctrl+C 退出）。"),
    "watch.regrading": ("a39dfd62", "检测到文件保存，重新判题。"),
    "watch.stopped": ("18c462bb", "已停止监视。"),
    "cli.description": ("09721d8f", "根据行为给五个事件日志函数判题。"),
    "cli.subcommands": ("17c15afb", "教师命令：'python -m grader batch SUBMISSIONS_DIR --out OUT_DIR' 给全班的作业判题；'python -m grader gradescope OUT.zip' 生成 Gradescope 的 autograder；'python -m maintainer release OUT_DIR'（只在完整的套件里有，学习者版副本里没有）写出学习者版副本。在任意一个命令后面加 --help，可以查看它的选项。"),
    "cli.target": ("7119c0a2", "要判题的对象：exercises（默认）、solutions、点分模块名、文件夹（一个包、放练习文件的文件夹，或者只有一个 .py 文件的文件夹），或者定义了这五个函数的 .py 文件（设置了 ${env} 时默认取它）"),
    "cli.task": ("30772305", "只判这个任务，用编号或 id 指定（{tasks}）；可以重复使用来指定多个"),
    "cli.watch": ("37985ca5", "每次保存目标里的文件时重新判题（按 Ctrl+C 退出）"),
    "cli.hint": ("89c38ecb", "为第一个还未通过的任务显示更具体的提示"),
    "cli.lang": ("2e3c9d5e", "这次运行所有消息的语言：en 或 zh（默认用套件的语言，也就是 python -m grader lang 设定的语言；没有设定时由 locale 决定）"),
    "cli.json": ("53bea552", "同时把结果写成 JSON 文件，格式由 --format 指定"),
    "cli.format": ("70d95444", "结果文件的格式：exercism（test-runner 接口 v3，默认）或 gradescope（results.json）"),
    "cli.no_sandbox": ("55a39bda", "不用沙箱运行学习者代码（等同于 --isolation none）"),
    "cli.unknown_task": ("b5df8696", "没有叫 {task} 的任务：请给出任务的编号或 id"),
    "cli.interrupted": ("ed933887", "判题已中断（Ctrl+C）：没有报告，也没有写出结果文件。"),
    "cli.release_missing": ("66904453", "release 是维护者用的工具：请在完整的套件里运行 'python -m maintainer release OUT_DIR'（学习者版副本里没有它）。"),
    "cli.pytest_target": ("ba7d5ae3", "要判题的对象：exercises（默认）、solutions、点分模块名或路径；没有指定时取 ${env}"),
    "settings.example_seconds": ("2da76e39", "一个示例可用的 CPU 秒数，用完后正在运行的那次调用算作超时；测不到 CPU 时间时按墙钟秒数计（默认 {default:g}）"),
    "settings.task_seconds": ("13326962", "一个任务总共可用的 CPU 秒数（默认 {default:g}）"),
    "settings.submission_seconds": ("e03684df", "一份作业总共可用的 CPU 秒数，所有任务合计；测不到 CPU 时间时按墙钟秒数计（默认 {default:g}）"),
    "settings.load_seconds": ("e10a50f7", "导入作业可用的 CPU 秒数（默认 {default:g}）"),
    "settings.isolation": ("50244cad", "学习者代码的隔离方式：auto（bubblewrap 能用就用它，否则在 root 下换成单独的用户，再不行就不隔离）、bwrap、uid 或 none（默认 {default}）"),
    "settings.memory_mb": ("957f91a8", "作业进程可用的内存，单位 MiB（默认 {default}）"),
    "settings.cpu_seconds": ("444dde98", "作业进程可用的 CPU 秒数（默认 {default}）"),
    "isolation.bwrap_missing": ("c36388c1", "没有安装 bubblewrap（bwrap），或者它在这里无法创建沙箱。"),
    "isolation.uid_needs_root": ("f9970c7c", "uid 隔离要以单独的用户身份运行学习者代码，只有 root 能做到。"),
    "isolation.uid_unreadable_python": ("efb29c0f", "这里用不了 uid 隔离：解释器的文件在 {path} 下，其他用户进不去（Python 装在了私有的主目录里）。请安装 bubblewrap，或者换一个其他用户能读取的 Python 来运行。"),
    "isolation.uid_network_open": ("8cf7ed82", "学习者代码以单独的用户身份运行，但这里没有切断网络（无法使用 unshare）：只有判题器的守卫拒绝了它的套接字。"),
    "isolation.uid_system_python": ("02576311", "学习者代码是用 {python} 运行的：判题器自己的 Python 所在的位置，其他用户读不到。"),
    "cli.batch.description": ("7304c754", "给文件夹里的每份作业判题，每份都在各自的沙箱里运行，最后写出成绩册。"),
    "cli.batch.submissions": ("0a80f5c5", "存放作业的文件夹：里面是 .py 文件，或者各含一份作业的文件夹"),
    "cli.batch.out": ("e5762d95", "存放 gradebook.csv、results/、summary.md 和 logs/ 的文件夹（全部判完后整体替换）"),
    "cli.batch.workers": ("4c0a65a5", "同时判题的作业数（默认：每个核一份）"),
    "cli.batch.no_sandbox": ("35812f41", "不隔离，直接判题（只在无法隔离时使用；所有输出都会注明这一点）"),
    "cli.batch.no_progress": ("9df94ea8", "不显示进度条"),
    "cli.batch.not_a_folder": ("3490489a", "{path} 不是存放作业的文件夹。"),
    "cli.batch.stopped": ("d9297985", "批量判题已停止（{signal}）：{out} 里什么也没有写，也没有留下还在运行的判题进程。"),
    "cli.batch.no_sandbox_available": ("39d17770", "无法安全地判题：没有安装 bubblewrap（bwrap），或者它在这里无法创建沙箱，而 uid 隔离需要 root 权限。请安装 bubblewrap（Debian/Ubuntu：sudo apt install bubblewrap）后重试，或者加上 --no-sandbox 不隔离直接判题。"),
    "cli.batch.closed": ("70c23190", "判题期间，以下路径对其他用户关闭（判完后恢复）：{paths}"),
    "cli.batch.done": ("486ce287", "用 {seconds:.0f} 秒判完了 {count} 份作业：{statuses}。"),
    "cli.batch.wrote": ("d443f471", "已写入 {path}"),
    "cli.batch.often_broken": ("25f83ef4", "{count} 份提交违反：[{task}] {sentence}"),
    "batch.progress": ("6de164ab", "正在给各份作业判题"),
    "batch.isolation.bwrap": ("be6e8aa0", "学习者代码在 bubblewrap 沙箱里运行：只能看到它自己那份作业的副本和标准库，没有网络，没有 /proc，只能有一个进程，还有判题器的守卫。"),
    "batch.isolation.uid": ("f10de354", "学习者代码以单独的用户身份运行，没有命名空间隔离：套件、全班的作业文件夹和输出对它关闭，判题器的守卫拒绝了文件、套接字和进程操作；只有在 unshare 可用的地方，它才有自己独立的网络。"),
    "batch.isolation.none": ("59bdaf78", "本批次没有用沙箱（--no-sandbox）：学习者代码以判题器自己的用户身份运行，只受判题器的守卫约束；成绩是否可信，取决于作业本身是否可信。"),
    "batch.summary.title": ("c494f879", "批量判题汇总"),
    "batch.summary.count": ("f1618d7f", "共 {count} 份作业，判题用时 {seconds:.0f} 秒。"),
    "batch.summary.status": ("073c1634", "状态"),
    "batch.summary.submissions": ("21e945ad", "作业数"),
    "batch.summary.tampered": ("090c66cd", "被发现篡改判题的作业（不得分）"),
    "batch.summary.most_failed": ("69b1d491", "全班最常违反的约定"),
    "batch.summary.none_failed": ("bcc9ecf7", "没有作业违反任何约定。"),
    "batch.summary.failed_by": ("5fcca9d8", "违反的提交数"),
    "batch.summary.promise": ("3513d945", "约定"),
    "batch.summary.task": ("0ebb429f", "任务"),
    "batch.ungraded.no_submission": ("a4698f00", "未判题：这个文件夹里没有唯一的 .py 文件或包。"),
    "batch.ungraded.not_a_file": ("749fdf4c", "未判题：既不是普通文件，也不是文件夹。"),
    "batch.ungraded.unreadable": ("bae818eb", "未判题：无法读取（{error}）。"),
    "batch.ungraded.grader_died": ("eb1fd240", "未判题：负责它的判题进程两次意外退出。"),
    "batch.note.same_name": ("fcc11285", "{entry} 与 {other} 同名"),
    "cli.gradescope.description": ("3f1f3eef", "生成 Gradescope 的 autograder（setup.sh、run_autograder 和判题器），打成 zip 供上传。"),
    "cli.gradescope.zip": ("6afbe5eb", "zip 文件的保存位置"),
    "cli.gradescope.no_folder": ("23381dc6", "文件夹 {path} 不存在：请先创建它，或者把 zip 写到别处。"),
    "cli.gradescope.wrote": ("224654bd", "已写入 {path}：在作业的 Configure Autograder 页面用 Zip file upload 上传它。"),
    "argparse.usage": ("d85f7a9a", "用法："),
    "argparse.options": ("a793ab8f", "选项"),
    "argparse.positional": ("a5f91c7a", "位置参数"),
    "argparse.help": ("608017da", "显示这段帮助，然后退出"),
    "argparse.error": ("954b9f0a", "%(prog)s：错误：%(message)s\n"),
    "argparse.argument": ("2ee7b9a9", "参数 %(argument_name)s：%(message)s"),
    "argparse.invalid_choice": ("9dbc964d", "不能是 %(value)r，只能从 %(choices)s 中选"),
    "argparse.invalid_value": ("3c817f68", "%(value)r 不是合法的 %(type)s 值"),
    "argparse.expected_one": ("d5d4f7b1", "后面要跟一个值"),
    "argparse.expected_at_most_one": ("d7650e9b", "后面最多跟一个值"),
    "argparse.expected_at_least_one": ("73868066", "后面至少要跟一个值"),
    "argparse.expected_count": ("8d20f271", "后面要跟 %s 个值"),
    "argparse.required": ("25fb5034", "缺少必需的参数：%s"),
    "argparse.unrecognized": ("5ed6ba5c", "不认识的参数：%s"),
    "argparse.not_allowed_with": ("a6c8c59c", "不能和参数 %s 一起用"),
    "argparse.one_required": ("0924da18", "参数 %s 必须给出一个"),
    "argparse.ambiguous": ("3bef049e", "选项 %(option)s 有歧义：可能是 %(matches)s"),
    "argparse.ignored_value": ("6692a97e", "这个选项不接受值，%r 被忽略了"),
    "argparse.cannot_open": ("c18676a0", "打不开 '%(filename)s'：%(error)s"),
    "argparse.unknown_command": ("0a4cd3a1", "没有 %(parser_name)r 这个命令（可选：%(choices)s）"),
    "cli.learner_commands": ("74f401df", "学习者命令：'python -m grader lang zh' 设定整个套件的语言（各个工具，以及练习的 docstring）。'python -m grader site --serve' 在浏览器里提供练习。"),
    "cli.lang.description": ("c68f6300", "设定整个套件的语言，不管系统的 locale 是什么。判题器、python -m sqlite_demo、实时页面、浏览器里的练习，以及 exercises/ 里桩代码的 docstring，都会改用这个语言。"),
    "cli.lang.language": ("e42bc3b6", "en 或 zh。auto 表示忘掉这个选择，重新由 locale 决定。不给这个参数时，显示现在用的是什么语言，以及原因。"),
    "cli.lang.leave_exercises": ("0ddd4721", "只改各个工具的语言，exercises/ 里的文件保持原样"),
    "lang.name.en": ("ba118bf7", "英文"),
    "lang.name.zh": ("8a9779f4", "中文"),
    "lang.now.chosen": ("2ee20d69", "套件的语言：{name}。这是用 python -m grader lang 选定的，记在 {path} 里。"),
    "lang.now.passed_on": ("7ec6bb51", "这次运行的语言：{name}。是环境变量 KIT_LANGUAGE 指定的。"),
    "lang.now.edition": ("97672666", "套件的语言：{name}。这是这份副本自带的语言。"),
    "lang.now.locale": ("bea519d6", "套件的语言：{name}。这是由 locale 决定的（{variables}）。"),
    "lang.now.how": ("cc66622a", "要换语言，运行 python -m grader lang zh（或 en）。"),
    "lang.set": ("e11ad8ae", "套件的语言现在是：{name}。不管 locale 是什么，都用这个语言。这个选择记在 {path} 里。"),
    "lang.forgotten": ("6f50af6c", "已经忘掉套件的语言选择，重新由 locale 决定。这里的 locale 选的是：{name}。"),
    "lang.stubs_switched": ("7510606c", "这些桩代码的 docstring 换了语言（{name}）：{files}。"),
    "lang.stubs_already": ("a0d459f3", "exercises/ 里桩代码的 docstring 已经是这个语言（{name}）了。"),
    "lang.stubs_edited": ("c20cb3c5", "什么都没有改：你已经修改过 {files}，它已经不是原来的桩代码了。你的代码原样保留。"),
    "lang.stubs_edited_how": ("b37f1a3d", "如果只想改各个工具的语言，运行：python -m grader lang {code} --leave-exercises"),
    "lang.stubs_left": ("09ec27a1", "exercises/ 里的文件保持原样。"),
    "lang.no_stubs": ("a2aa4988", "这份副本的桩代码只有一种语言，所以 exercises/ 里的文件保持原样。"),
    "lang.cannot_write": ("7b9782ba", "无法把选择记到 {path} 里：{error}"),
    "lang.separator": ("0a07f659", "、"),
    "stub.not_implemented": ("3443a477", "{function} 尚未实现"),
    "cli.site.description": ("0080fa5e", "构建练习的静态网站：在浏览器里判题，什么都不用安装。"),
    "cli.site.out": ("e80860a1", "构建网站用的文件夹"),
    "cli.site.serve": ("e2362535", "在 127.0.0.1 上提供这个网站"),
    "cli.site.port": ("e893d740", "提供服务的端口（8000）"),
    "cli.site.no_folder": ("8f60b4cf", "请给出构建网站用的文件夹，或者加上 --serve"),
    "cli.site.not_a_port": ("f6f01b94", "{value!r} 不是端口号：请给 1 到 65535 之间的数"),
    "cli.site.cannot_build": ("93e44378", "无法构建网站：{error}"),
    "cli.site.built": ("b88642c9", "已构建 {folder}：{files} 个文件，{size:.1f} MiB"),
    "cli.site.cannot_serve": ("6e703d3c", "无法在 127.0.0.1:{port} 上提供服务：{error}。换一个 --port 试试"),
    "cli.site.serving": ("48529d88", "正在提供 {url}（按 Ctrl+C 停止）"),
    "cli.site.stopped": ("8322e87d", "已停止"),
    "site.build.is_a_file": ("e0cf3bb9", "{path} 是一个文件：请给一个文件夹来放网站"),
    "site.build.not_empty": ("23ed0709", "{path} 不是空的，里面也不是之前构建的网站：请给一个空的或者新的文件夹"),
    "site.build.hypothesis": ("0f3793ca", "装的是 hypothesis {installed}，但每次判题都要用 {pinned}：请重新运行 pip install -e \".[dev]\""),
    "site.build.no_npm": ("11c99876", "构建网站需要 npm：apt-get install nodejs npm"),
    "site.build.npm_failed": ("8568eaf7", "在 {folder} 里运行 npm ci 出错：\n{output}"),
    "site.build.esbuild_failed": ("c671557e", "esbuild 无法打包编辑器：\n{output}"),
    "site.build.edited_stubs": ("ac70d75a", "这份副本不是 git 仓库，而 exercises/{name} 已经不是桩代码了：网站会把你的代码当成练习发出去。请在套件的 git 克隆里构建网站"),
    # the folders any user may write (uid isolation)
    "batch.folders.private": ("62d8e0bb", "每份作业只能写进它自己的 tmpfs：这个 tmpfs 挂载在这里所有用户都能写的文件夹（{folders}）和它的临时文件夹上，最多 {files} 个文件、{mib} MiB，判题结束时随之消失。"),
    "batch.folders.shared": ("5b8cb5d4", "这里所有用户都能写的文件夹（{folders}）与整台机器共用（这里无法做私有挂载）：每份作业留在里面的东西在每次调用后都会被统计，超过 {files} 个文件或 {mib} MiB 就会被停下，判题结束时全部删除。"),
    "batch.note.write_budget": ("013c9899", "在它能写的地方留下了 {files} 个文件、共 {size} 字节，超出了 {max_files} 个文件、{max_size} 字节的上限"),
    # --- the grade's own time and trouble -----------------------------------------
    "outcome.timed_out_wall": ("c0161021", "这次调用在 {seconds:g} 秒（按时钟算：这里数不了 CPU 时间）内没有返回（死循环？）；其他任务照常判题"),
    "outcome.blocked": ("6976b4aa", "这次调用停下来不再计算，一直在等（等锁、管道还是输入？），远远超过一次调用能用的时间：函数只能返回或抛出异常，不能等待"),
    "outcome.answered_differently": ("99fc16dd", "同样的调用再做一遍，你的代码给出了不同的答案：第一次的时候，这次调用的答案和正确实现的不一样"),
    "cause.blocked": ("b8fa55a9", "有一次调用一直在等待（被阻塞），没有返回。"),
    "cause.machine_busy": ("69e88717", "机器太忙，没能判完这个任务。这是判题器的问题，不是你代码的问题：等机器空闲一些再判一次。"),
    "hint.cause.blocked.1": ("4c8ea8eb", "有一次调用在等一件永远不会发生的事：在最后列出的那次调用里，找找重复获取的锁，或者从管道、input() 读取的地方。"),
    "hint.cause.blocked.2": ("821831da", "你的函数根本不需要等待：它们只对传进来的值做计算。"),
    "hint.cause.machine_busy.1": ("a1501298", "这一点你的代码不需要改：稍后再判一次。"),
    "hint.cause.machine_busy.2": ("17d94bae", "如果机器空闲时还是这样，把这份报告给教师看。"),
    "load.machine_busy": ("b1d771a0", "机器太忙，没能及时导入它。这是判题器的问题，不是作业的问题：等机器空闲一些再判一次。"),
    "note.wall_clock_limits": ("317b19e5", "这里的时间限制按时钟秒数算（这里数不了 CPU 时间）：机器很忙时，正确但较慢的作业也可能超时。"),
    # --- a comment in a shown case ------------------------------------------------
    "outcome.raises": ("533ea7b3", "抛出 {error}"),
    # --- added --------------------------------------------------------------------
    "load.not_in_sandbox": ("c5ab7af7", "它导入了 {module}，判题器的沙箱里没有这个模块：它能在守卫看不到的地方写文件，或读取判题器自己的栈帧。请像练习那样，用普通的 Python 值保存日志。"),
}
# fmt: on

# --- where a wrong answer first differs from the expected one, or a read first changed ------
# (grader.engine.difference): the path is Python, and each side a value as Python writes it.
EN.update(
    {
        "outcome.differs_at": "they first differ at {path}: returned {first}, expected {second}",
        "outcome.missing_at": "they first differ at {path}: nothing came back there, expected {second}",
        "outcome.extra_at": "they first differ at {path}: returned {first}, where nothing was expected",
        "outcome.changed_at": "it first changed at {path}: {first} before, {second} after",
        "outcome.removed_at": "it first changed at {path}: {first} before, gone after",
        "outcome.added_at": "it first changed at {path}: nothing before, {second} after",
    }
)
# fmt: off
ZH.update({
    "outcome.differs_at": ("99b8ddbd", "两者第一处不同在 {path}：返回的是 {first}，应为 {second}"),
    "outcome.missing_at": ("547450a9", "两者第一处不同在 {path}：返回值里没有这一项，应为 {second}"),
    "outcome.extra_at": ("19ce7dc3", "两者第一处不同在 {path}：返回了 {first}，而这里本不该有东西"),
    "outcome.changed_at": ("592b8529", "第一处变化在 {path}：之前是 {first}，之后是 {second}"),
    "outcome.removed_at": ("d8efbce8", "第一处变化在 {path}：之前是 {first}，之后没有了"),
    "outcome.added_at": ("23aec8c7", "第一处变化在 {path}：之前没有，之后多了 {second}"),
})
# fmt: on
