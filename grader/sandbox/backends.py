"""How the child interpreter is started: inside bubblewrap, or (when asked) without a sandbox.

With bubblewrap (``bwrap``, Debian/Ubuntu package ``bubblewrap``) the child gets:

* its own PID namespace: it sees no other process, and when the sandbox's first process
  dies the kernel kills every process in it, ``setsid`` daemons included;
  ``--die-with-parent`` ties that to the trusted process, so nothing outlives a grading;
* no network (a network namespace with only a loopback that is down), its own IPC and host
  name;
* a file system holding only the system's libraries, the standard library (every
  ``site-packages`` and the kit hidden under empty folders), a read-only copy of the
  submission at ``/submission``, the call server at ``/grader`` and a small private ``/tmp``:
  no other submission, no kit, no output folder is there to read or write;
* an unprivileged user: started as root, the call server drops to a uid of its own before any
  learner code runs (the kernel does not count root's processes against a process cap, so the
  cap only bites for another uid); started as a user, a user namespace maps that user and
  every capability is dropped;
* limits on memory, processes, open files, file size and CPU time, set by the call server on
  itself before it imports the submission (see :func:`grader.callserver.startup.set_limits`).

Where bubblewrap cannot run but the grader is root (a Gradescope container, a Docker image
without user namespaces), ``uid`` isolation runs the child as a uid of its own: it cannot
touch the grader's files or processes, the process cap applies, and every process of that
uid is killed when the grading ends; but it sees the file system and the network.

Without a sandbox (``none``) the child is still a separate, freshly started interpreter with
an import path of the standard library and the copy alone, so a learner's ``import solutions``
fails the same way; but it runs as the same user as the grader and can read and write what
that user can. ``python -m grader`` uses it on a machine without bubblewrap and says so;
``batch`` refuses it unless told ``--no-sandbox``.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from grader.sandbox.workspace import KIT_ROOT, RUNTIME_PACKAGE, Workspace

BWRAP = "bwrap"
UID = "uid"
NONE = "none"
SANDBOX_ROOT = "/submission"
SANDBOX_RUNTIME = "/grader"
SANDBOX_TMP_BYTES = 16 * 1024 * 1024
#: Where the uids of sandboxed children come from when the grader runs as root: far above any
#: real account, so that the only processes of such a uid are one child's.
UID_RANGE = (2_000_000, 3_000_000)
SYSTEM_TREES = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin")

#: Started with ``-P -s -S``: no script folder, no user site, no ``site`` (so no site-packages
#: and no editable-install hooks) on the import path. Not ``-I``, which would also ignore
#: PYTHONHASHSEED: a fixed seed keeps set order, and so a grade, the same on every run.
BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    f"from {RUNTIME_PACKAGE}.startup import main; del sys.path[0]; main(sys.argv[2])"
)


def interpreter() -> str:
    """The real interpreter binary (a virtual environment's python is a link to it)."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


def child_environment(home: str) -> dict[str, str]:
    """The whole environment of a child: nothing of the grader's own."""
    return {
        "HOME": home,
        "TMPDIR": home,
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


@functools.cache
def bwrap_works() -> bool:
    """Whether bubblewrap is installed and can start a sandbox here (tried once per process)."""
    if shutil.which(BWRAP) is None:
        return False
    command = [*_bwrap_prefix(hidden=()), interpreter(), "-S", "-c", "pass"]
    try:
        finished = subprocess.run(command, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return finished.returncode == 0


def choose(requested: str) -> str:
    """The isolation to use: ``auto`` picks bubblewrap when it works, else a user of its own
    when the grader runs as root (a container without user namespaces), else none."""
    if requested != "auto":
        return requested
    if bwrap_works():
        return BWRAP
    return UID if os.getuid() == 0 else NONE


def command(isolation: str, workspace: Workspace, hidden: tuple[Path, ...]) -> list[str]:
    """The command line that starts the call server for ``workspace``."""
    python = interpreter()
    if isolation != BWRAP:
        return [python, "-P", "-s", "-S", "-c", BOOT, str(workspace.runtime)]
    mounts = [
        *("--ro-bind", str(workspace.submission), SANDBOX_ROOT),
        *("--ro-bind", str(workspace.runtime), SANDBOX_RUNTIME),
        *("--chdir", "/tmp"),
        "--clearenv",
    ]
    for name, value in child_environment("/tmp").items():
        mounts += ["--setenv", name, value]
    return [*_bwrap_prefix(hidden), *mounts, python, "-P", "-s", "-S", "-c", BOOT, "/grader"]


def child_root(isolation: str, workspace: Workspace) -> str:
    """Where the child sees the copy of the submission."""
    return SANDBOX_ROOT if isolation == BWRAP else str(workspace.submission)


def child_uid(isolation: str) -> int | None:
    """A fresh uid for the child, when the grader runs as root and the isolation uses one."""
    if isolation == NONE or os.getuid() != 0:
        return None
    return secrets.choice(range(*UID_RANGE))


def kill_user(uid: int) -> None:
    """Kill every process of ``uid``: what a ``setsid`` escaped from its process group too.

    A helper process takes the uid and signals "every process I may signal" (pid -1), which
    for an unprivileged user means exactly its own processes. Used without a PID namespace.
    """
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the forked helper
        try:
            os.setgid(uid)
            os.setuid(uid)
            for _ in range(50):  # a process may fork while the first sweep runs
                try:
                    os.kill(-1, 9)
                except ProcessLookupError:
                    break
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def _bwrap_prefix(hidden: tuple[Path, ...]) -> list[str]:
    prefix = [
        BWRAP,
        "--die-with-parent",
        "--new-session",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
    ]
    if os.getuid() != 0:
        prefix += ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    for tree in _python_trees():
        # Run as root, bubblewrap creates missing parent folders (/root, for a pyenv
        # Python) with mode 0700, which the child's own uid could not enter.
        for parent in reversed(Path(tree).parents[:-1]):
            prefix += ["--perms", "0755", "--dir", str(parent)]
        prefix += ["--ro-bind-try", tree, tree]
    for folder in _hidden_folders(hidden):
        prefix += ["--tmpfs", folder]
    prefix += ["--proc", "/proc", "--dev", "/dev"]
    prefix += ["--size", str(SANDBOX_TMP_BYTES), "--tmpfs", "/tmp"]
    return prefix


def _python_trees() -> list[str]:
    """The system's libraries and the interpreter's installation, each once."""
    trees = list(SYSTEM_TREES)
    for path in (sys.base_prefix, sys.base_exec_prefix, str(Path(interpreter()).parent)):
        if not any(path == tree or path.startswith(tree + "/") for tree in trees):
            trees.append(path)
    return trees


def _hidden_folders(extra: tuple[Path, ...]) -> list[str]:
    """Folders inside the mounted trees the child must not see: every place packages are
    installed (the kit, if installed, among them), and whatever the caller names."""
    minor = f"python3.{sys.version_info.minor}"
    candidates = {
        sysconfig.get_path("purelib", vars={"base": sys.base_prefix}),
        sysconfig.get_path("platlib", vars={"platbase": sys.base_exec_prefix}),
        "/usr/lib/python3/dist-packages",
        f"/usr/lib/{minor}/site-packages",
        f"/usr/local/lib/{minor}/dist-packages",
        f"/usr/local/lib/{minor}/site-packages",
        str(KIT_ROOT),
        *(str(path) for path in extra),
    }
    trees = _python_trees()
    inside = [
        folder
        for folder in sorted(candidates)
        if os.path.isdir(folder) and any(folder.startswith(tree + "/") for tree in trees)
    ]
    return inside
