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
    "outcome.in_loop": "in the loop's round {number}:",
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
    "cli.interrupted": "Grading stopped (Ctrl+C): no report, and no results file written.",
    "cli.release_missing": "release is a maintainer's tool: it is in the kit, not in a learner's copy.",
    "cli.pytest_target": "what to grade: exercises (default), solutions, a dotted module name, or a path; falls back to ${env}",
    # --- settings (every front end's options come from these) ---------------------------
    "settings.example_seconds": "CPU seconds one example may use before the call running then counts as timed out; where CPU time cannot be measured, wall-clock seconds (default {default:g})",
    "settings.task_seconds": "CPU seconds one task may use in all (default {default:g})",
    "settings.submission_seconds": "wall-clock seconds one submission may take in all, every task together (default {default:g})",
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
    "outcome.in_loop": ("a6a59365", "循环的第 {number} 轮："),
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
    "outcome.kernel_fault": ("30050596", "在你的程序进程里运行的判题代码报告了故障（{message}）：如果你的代码没有做什么特别的事，请把这条信息给老师看"),
    "outcome.tampered": ("dc75dbe6", "{detail}（{event}），位置：{where}"),
    "cause.timed_out": ("89a03c69", "有一次调用用完了分给它的 CPU 时间，还没有返回。"),
    "cause.task_timed_out": ("66f4f37c", "这个任务用完了它的 CPU 时间：对判题器的样例（最多一千多个事件）来说，你的函数太慢，或者其中某个陷入了死循环。"),
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
    "hint.cause.timed_out.1": ("1bb385ab", "有一次调用一直没有返回：在最后列出的那次调用里，找找条件永远不变的循环，或者没有终止条件的递归。"),
    "hint.cause.timed_out.2": ("d32a57cc", "自己运行一遍上面列出的调用；如果只是变慢，找找随日志长度平方增长的开销（比如在循环的每一步都复制一遍日志）。"),
    "hint.cause.error.1": ("7033986f", "函数只能返回值或抛出异常：不要退出，不要结束进程，也不要往判题器的通道里写东西。"),
    "hint.cause.error.2": ("98fb6cf2", "自己运行一遍上面列出的调用，看看发生了什么。"),
    "hint.cause.tampered.1": ("37ed36b0", "正常的解答用不到这些：删掉上面指出的代码，然后重新判题。"),
    "hint.cause.tampered.2": ("cbdca09e", "标准库里的常规模块（copy、json、dataclasses 等）就够用了。"),
    "hint.not_implemented.1": ("36699fcf", "写出这个任务列出的函数；每个函数该做什么，docstring 里都写了。"),
    "hint.not_implemented.2": ("ff73cd9c", "按顺序来：先写任务 1 的函数，之后每个任务再多写一个函数。"),
    "note.flaky": ("1a8d0320", "同样的调用并不是每次都会出这个错：你的函数可能在调用之间保留了状态（全局变量、以 id() 为键的缓存、随机数）。"),
    "note.function_of_task": ("94a336c7", "出错的是 {function} 的调用，这个函数在任务 {number}（{name}）里编写。"),
    "note.written_in_task": ("01ef7d96", "{function} 要在前面的任务 {number}（{name}）里编写。"),
    "load.heading": ("8dac611d", "无法加载 {target}。"),
    "load.not_found": ("a2bc40b0", "找不到名为 {target} 的模块或文件。"),
    "load.too_large": ("862fb3b9", "提交的内容太大：判题时最多只看 {files} 个文件、{size} MiB。"),
    "load.too_deep": ("db8f8942", "提交的文件夹嵌套太深：判题时最多只看 {depth} 层。"),
    "load.unreadable": ("d93bca3f", "{name} 有多个硬链接：请把它复制成一个普通文件。"),
    "load.syntax": ("a51d3970", "{where} 中有 SyntaxError：{message}\n    {text}"),
    "load.raised": ("4427501c", "导入时抛出了 {kind}: {message}（{where}）"),
    "load.missing": ("fa17c903", "它没有定义 {names}。"),
    "load.exit": ("e8466eaf", "导入时调用了 sys.exit({code})。"),
    "load.memory": ("dc0aeffd", "导入时内存耗尽。"),
    "load.not_stdlib": ("1c89f7ec", "它导入了 {module}，这不是标准库里的模块：提交的代码只能用标准库（以及它自己的模块）。"),
    "load.timed_out": ("889208cd", "导入没有在 {seconds:g} 秒内完成。"),
    "load.died": ("3cfea145", "导入时进程退出了（退出码 {code}）。"),
    "load.broke": ("f054a72f", "导入过程中，它的进程往判题器的通道里写了东西。"),
    "load.tampered": ("b357cd4b", "导入过程中，它试图接触判题器或系统（详见下面的记录）。"),
    "report.title": ("ae3ed5d2", "判题：{target}"),
    "report.task": ("406b17c6", "{number}. {name}"),
    "report.broken": ("2370127b", "违反的约定：{sentence}"),
    "report.of_function": ("d4aaa0e7", "（{function} 的约定）"),
    "report.case": ("1ff8a1f3", "能复现问题的最小用例："),
    "report.hint": ("18ed0c53", "提示：{hint}"),
    "report.total": ("d1832918", "总分：{earned}/{possible}"),
    "report.all_passed": ("11ad42b3", "所有任务都通过了，干得好！"),
    "report.asked_passed": ("699d1333", "这次判的任务都通过了（{total} 个任务中的 {graded} 个）；去掉 --task 再运行，就会判全部任务。"),
    "report.next": ("b5d0700c", "先修好第一个没通过的任务，再运行一次判题器。"),
    "report.output": ("9ff3904f", "你的代码输出了："),
    "report.isolation.bwrap": ("e3b0c442", ""),
    "report.isolation.uid": ("68f02a8f", "这次判题没有用 bubblewrap：学习者代码以一个单独的用户身份运行（读不到判题器的文件和其他人的提交）。"),
    "report.isolation.none": ("91ad5444", "这次判题没有用沙箱：学习者代码以你自己的用户身份，在一个单独的解释器里运行，只能看到标准库和它自己的那份副本。"),
    "report.isolation.browser": ("ef69a4bd", "这次判题在你的浏览器里进行，只是自我检查：你的代码运行在一个单独的 Web Worker（Pyodide）里，而浏览器由你掌控，时间限制按墙上时间计算。教师给的成绩来自 python -m grader batch 或 Gradescope 自动判题器。"),
    "site.title": ("5db188bd", "智能体持久化：练习"),
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
    "hint.last": ("898c8999", "这已经是最具体的提示了。报告里的最小用例准确指出了是哪次调用出的错。"),
    "hint.none_needed": ("5989c901", "所有任务都通过了，不需要提示。"),
    "watch.progress": ("017064b4", "进度：已完成 {done}/{total} 个任务。"),
    "watch.all_done": ("e967951f", "所有任务都完成了，干得好！"),
    "watch.next_task": ("97e1372c", "下一个：{task}。"),
    "watch.waiting": ("3ffac082", "正在监视 {paths}：保存文件后会重新判题（按 Ctrl+C 退出）。"),
    "watch.regrading": ("a39dfd62", "检测到文件保存，重新判题。"),
    "watch.stopped": ("18c462bb", "已停止监视。"),
    "cli.description": ("09721d8f", "根据行为给五个事件日志函数判题。"),
    "cli.subcommands": ("e26595da", "讲师命令：'python -m grader batch SUBMISSIONS_DIR --out OUT_DIR' 给全班判题；'python -m grader gradescope OUT.zip' 生成 Gradescope 的 autograder；'python -m grader release OUT_DIR'（只在完整的套件里有，学习者版副本里没有）写出学习者版副本。在任意一个命令后面加 --help，可以查看它的选项。"),
    "cli.target": ("7119c0a2", "要判题的对象：exercises（默认）、solutions、点分模块名、文件夹（一个包、放练习文件的文件夹，或者只有一个 .py 文件的文件夹），或者定义了这五个函数的 .py 文件（设置了 ${env} 时默认取它）"),
    "cli.task": ("30772305", "只判这个任务，用编号或 id 指定（{tasks}）；可以重复使用来指定多个"),
    "cli.watch": ("37985ca5", "每次保存目标里的文件时重新判题（按 Ctrl+C 退出）"),
    "cli.hint": ("89c38ecb", "为第一个还没通过的任务显示更具体的提示"),
    "cli.lang": ("2e1a239b", "所有消息的语言：en 或 zh（默认由 LANGUAGE、LC_ALL、LC_MESSAGES 或 LANG 决定）"),
    "cli.json": ("53bea552", "同时把结果写成 JSON 文件，格式由 --format 指定"),
    "cli.format": ("70d95444", "结果文件的格式：exercism（test-runner 接口 v3，默认）或 gradescope（results.json）"),
    "cli.no_sandbox": ("55a39bda", "不用沙箱运行学习者代码（等同于 --isolation none）"),
    "cli.unknown_task": ("b5df8696", "没有叫 {task} 的任务：请给出任务的编号或 id"),
    "cli.interrupted": ("ed933887", "判题已中断（Ctrl+C）：没有报告，也没有写出结果文件。"),
    "cli.release_missing": ("90c2fd4f", "release 是维护者用的工具：它在完整的套件里，学习者版副本里没有。"),
    "cli.pytest_target": ("ba7d5ae3", "要判题的对象：exercises（默认）、solutions、点分模块名或路径；没有指定时取 ${env}"),
    "settings.example_seconds": ("2da76e39", "单个样例可用的 CPU 秒数，用完后正在运行的那次调用算作超时；测不到 CPU 时间时按墙钟秒数计（默认 {default:g}）"),
    "settings.task_seconds": ("13326962", "一个任务总共可用的 CPU 秒数（默认 {default:g}）"),
    "settings.submission_seconds": ("6153f8ad", "一份提交总共可用的墙钟秒数，所有任务合计（默认 {default:g}）"),
    "settings.load_seconds": ("e10a50f7", "导入提交可用的 CPU 秒数（默认 {default:g}）"),
    "settings.isolation": ("50244cad", "学习者代码的隔离方式：auto（bubblewrap 能用就用它，否则在 root 下换成单独的用户，再不行就不隔离）、bwrap、uid 或 none（默认 {default}）"),
    "settings.memory_mb": ("957f91a8", "提交进程可用的内存，单位 MiB（默认 {default}）"),
    "settings.cpu_seconds": ("444dde98", "提交进程可用的 CPU 秒数（默认 {default}）"),
    "isolation.bwrap_missing": ("c36388c1", "没有安装 bubblewrap（bwrap），或者它在这里无法创建沙箱。"),
    "isolation.uid_needs_root": ("f9970c7c", "uid 隔离要以单独的用户身份运行学习者代码，只有 root 能做到。"),
    "isolation.uid_unreadable_python": ("efb29c0f", "这里用不了 uid 隔离：解释器的文件在 {path} 下，其他用户进不去（Python 装在了私有的主目录里）。请安装 bubblewrap，或者换一个其他用户能读取的 Python 来运行。"),
    "isolation.uid_network_open": ("8cf7ed82", "学习者代码以单独的用户身份运行，但这里没有切断网络（无法使用 unshare）：只有判题器的守卫拒绝了它的套接字。"),
    "isolation.uid_system_python": ("02576311", "学习者代码是用 {python} 运行的：判题器自己的 Python 所在的位置，其他用户读不到。"),
    "cli.batch.description": ("7304c754", "给文件夹里的每份提交判题，每份都在各自的沙箱里运行，最后写出成绩单。"),
    "cli.batch.submissions": ("0a80f5c5", "存放提交的文件夹：里面是 .py 文件，或者各含一份提交的文件夹"),
    "cli.batch.out": ("e5762d95", "存放 gradebook.csv、results/、summary.md 和 logs/ 的文件夹（全部判完后整体替换）"),
    "cli.batch.workers": ("4c0a65a5", "同时判题的提交数（默认：每个核心一份）"),
    "cli.batch.no_sandbox": ("35812f41", "不隔离，直接判题（只在无法隔离时使用；所有输出都会注明这一点）"),
    "cli.batch.no_progress": ("9df94ea8", "不显示进度条"),
    "cli.batch.not_a_folder": ("3490489a", "{path} 不是存放提交的文件夹。"),
    "cli.batch.no_sandbox_available": ("39d17770", "无法安全地判题：没有安装 bubblewrap（bwrap），或者它在这里无法创建沙箱，而 uid 隔离需要 root 权限。请安装 bubblewrap（Debian/Ubuntu：sudo apt install bubblewrap）后重试，或者加上 --no-sandbox 不隔离直接判题。"),
    "cli.batch.closed": ("70c23190", "判题期间，以下路径对其他用户关闭（判完后恢复）：{paths}"),
    "cli.batch.done": ("486ce287", "用 {seconds:.0f} 秒判完了 {count} 份提交：{statuses}。"),
    "cli.batch.wrote": ("d443f471", "已写入 {path}"),
    "cli.batch.often_broken": ("25f83ef4", "{count} 份提交违反：[{task}] {sentence}"),
    "batch.progress": ("6de164ab", "正在给各份提交判题"),
    "batch.isolation.bwrap": ("be6e8aa0", "学习者代码在 bubblewrap 沙箱里运行：只能看到它自己那份提交的副本和标准库，没有网络，没有 /proc，只能有一个进程，还有判题器的运行时防护。"),
    "batch.isolation.uid": ("f10de354", "学习者代码以单独的用户身份运行，没有命名空间隔离：套件、全班的提交文件夹和输出对它关闭，判题器的运行时防护拒绝了文件、套接字和进程操作；只有在 unshare 可用的地方，它才有自己独立的网络。"),
    "batch.isolation.none": ("59bdaf78", "本批次没有用沙箱（--no-sandbox）：学习者代码以判题器自己的用户身份运行，只受判题器的运行时防护约束；成绩是否可信，取决于提交本身是否可信。"),
    "batch.summary.title": ("c494f879", "批量判题汇总"),
    "batch.summary.count": ("f1618d7f", "共 {count} 份提交，判题用时 {seconds:.0f} 秒。"),
    "batch.summary.status": ("073c1634", "状态"),
    "batch.summary.submissions": ("21e945ad", "提交数"),
    "batch.summary.tampered": ("090c66cd", "被发现篡改判题的提交（不得分）"),
    "batch.summary.most_failed": ("69b1d491", "全班最常违反的约定"),
    "batch.summary.none_failed": ("bcc9ecf7", "没有提交违反任何约定。"),
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
    # --- the grade's own time and trouble -----------------------------------------
    "outcome.timed_out_wall": ("c0161021", "这次调用在 {seconds:g} 秒（按时钟算：这里数不了 CPU 时间）内没有返回（死循环？）；其他任务照常判题"),
    "outcome.blocked": ("6976b4aa", "这次调用停下来不再计算，一直在等（等锁、管道还是输入？），远远超过一次调用能用的时间：函数只能返回或抛出异常，不能等待"),
    "outcome.answered_differently": ("99fc16dd", "同样的调用再做一遍，你的代码给出了不同的答案：第一次的时候，这次调用的答案和正确实现的不一样"),
    "cause.blocked": ("b8fa55a9", "有一次调用一直在等待（被阻塞），没有返回。"),
    "cause.machine_busy": ("69e88717", "机器太忙，没能判完这个任务。这是判题器的问题，不是你代码的问题：等机器空闲一些再判一次。"),
    "hint.cause.blocked.1": ("4c8ea8eb", "有一次调用在等一件永远不会发生的事：在最后列出的那次调用里，找找重复获取的锁，或者从管道、input() 读取的地方。"),
    "hint.cause.blocked.2": ("821831da", "你的函数根本不需要等待：它们只对传进来的值做计算。"),
    "hint.cause.machine_busy.1": ("a1501298", "这一点你的代码不需要改：稍后再判一次。"),
    "hint.cause.machine_busy.2": ("17d94bae", "如果机器空闲时还是这样，把这份报告给老师看。"),
    "load.machine_busy": ("b1d771a0", "机器太忙，没能及时导入它。这是判题器的问题，不是提交的问题：等机器空闲一些再判一次。"),
    "note.wall_clock_limits": ("317b19e5", "这里的时间限制按时钟秒数算（这里数不了 CPU 时间）：机器很忙时，正确但较慢的提交也可能超时。"),
}
# fmt: on
