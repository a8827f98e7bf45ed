"""How the learner's interpreter is started: inside bubblewrap, as a user of its own, or as is.

With bubblewrap (``bwrap``, Debian/Ubuntu package ``bubblewrap``) the child gets:

* its own PID namespace: it sees no other process, and when the sandbox's first process
  dies the kernel kills every process in it; ``--die-with-parent`` ties that to the trusted
  process, so nothing outlives a grading;
* no network (a namespace with only a loopback that is down), its own IPC and host name;
* a file system holding only the system's libraries, the interpreter and its standard
  library (every ``site-packages`` hidden), a read-only copy of the submission and a small
  private ``/tmp``: no ``/proc`` (so no ``/proc/self/mem``), no kit, no other submission;
* a uid of its own (started as root: the call server drops to it before any learner code
  runs, so the process cap counts only its processes), or a user namespace with every
  capability dropped (started as a user);
* limits on memory, processes, open files, file size and CPU time (set by the kernel on
  itself, see :mod:`grader.kernel.serve`).

Where bubblewrap cannot run but the grader is root (a Gradescope container), ``uid`` runs the
child as a uid of its own: it cannot read the kit, the grader or other submissions (the batch
and the autograder make them readable by root alone), it gets a network namespace of its own
where ``unshare`` works, and every process of that uid is killed when its grading ends. The
folders any user may write are found once (:mod:`.writable`); where mounts can be made, each
child gets a small tmpfs of its own over all of them (:mod:`.mounts`), else what its uid
leaves there is measured after every request and removed when it stops. Its interpreter
must be readable by that uid: one under a private home (pyenv in ``/root``) is not, and then
a system Python is used, or uid isolation is refused, saying why.

Without a sandbox (``none``) the child is still a separate, freshly started interpreter with
only the standard library and the copy on its import path, and the kernel's guard still
denies what it denies everywhere; but it runs as the grader's user.
"""

from __future__ import annotations

import enum
import functools
import os
import secrets
import shutil
import stat
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from grader.transport import mounts, writable
from grader.transport.workspace import KIT_ROOT, Workspace

SANDBOX_ROOT = "/submission"
SANDBOX_TMP = "/tmp"
SANDBOX_TMP_BYTES = 16 * 1024 * 1024
#: Where the uids of sandboxed children come from when the grader runs as root: far above any
#: real account, so that the only processes of such a uid are one child's.
UID_RANGE = (2_000_000, 3_000_000)
SYSTEM_TREES = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin")
#: Interpreters tried for uid isolation when the grader's own is not readable by others.
SYSTEM_PYTHONS = ("/usr/bin/python3", "/usr/local/bin/python3")


class Isolation(enum.Enum):
    """How learner code is kept apart from everything else."""

    BWRAP = "bwrap"
    UID = "uid"
    NONE = "none"


@dataclass(frozen=True)
class Launcher:
    """What starts children: the isolation, the interpreter, and whether it has a network
    namespace of its own. ``note`` is a message id with what the user should know, if any.
    With a uid of its own: ``writable``, what any user may write here, and whether each child
    gets private copies of those folders (``private_folders``) or shares them."""

    isolation: Isolation
    python: str
    own_network: bool
    note: str | None = None
    writable: writable.Writable | None = None
    private_folders: bool = False


class Unavailable(Exception):
    """The isolation asked for cannot run here; ``reason`` is a message id, ``detail`` a path."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason, detail)
        self.reason, self.detail = reason, detail


def interpreter() -> str:
    """The real interpreter binary (a virtual environment's python is a link to it)."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


def stdlib_folders(python: str | None = None) -> list[str]:
    """Where ``python`` (default: this one) keeps its standard library."""
    if python is None or os.path.realpath(python) == interpreter():
        paths = sysconfig.get_paths()
        return sorted({os.path.realpath(paths["stdlib"]), os.path.realpath(paths["platstdlib"])})
    found = subprocess.run(
        [python, "-S", "-c", "import sysconfig as s; p=s.get_paths(); print(p['stdlib']); "
         "print(p['platstdlib'])"],
        capture_output=True, text=True, timeout=20, check=True,
    )  # fmt: skip
    return sorted({os.path.realpath(line) for line in found.stdout.split()})


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
    if shutil.which("bwrap") is None:
        return False
    command = [*_bwrap_prefix(hidden=()), interpreter(), "-S", "-c", "pass"]
    try:
        finished = subprocess.run(command, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return finished.returncode == 0


@functools.cache
def unshare_net_works() -> bool:
    """Whether ``unshare --net`` can give a child a network namespace of its own."""
    if shutil.which("unshare") is None or os.getuid() != 0:
        return False
    try:
        finished = subprocess.run(
            ["unshare", "--net", "true"], capture_output=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return finished.returncode == 0


def choose(requested: str) -> Launcher:
    """The launcher for ``requested`` (``auto``, ``bwrap``, ``uid`` or ``none``).

    ``auto`` picks bubblewrap when it works, else a uid of its own when the grader runs as
    root, else none.

    Raises:
        Unavailable: ``bwrap`` asked for and not working, or ``uid`` asked for where it cannot
            run (not root, or no interpreter readable by other users).
    """
    if requested == "auto":
        if bwrap_works():
            return Launcher(Isolation.BWRAP, interpreter(), True)
        requested = "uid" if os.getuid() == 0 else "none"
    isolation = Isolation(requested)
    if isolation is Isolation.BWRAP and not bwrap_works():
        raise Unavailable("isolation.bwrap_missing")
    if isolation is Isolation.UID:
        return _uid_launcher()
    return Launcher(isolation, interpreter(), isolation is Isolation.BWRAP)


@functools.cache
def _uid_launcher() -> Launcher:
    if os.getuid() != 0:
        raise Unavailable("isolation.uid_needs_root")
    own_network = unshare_net_works()
    python: str | None = interpreter()
    note = None
    closed = unreadable_folder([interpreter(), *stdlib_folders()])
    if closed is not None:
        python, note = _system_python(), "isolation.uid_system_python"
    if python is None:
        raise Unavailable("isolation.uid_unreadable_python", closed or "")
    found = writable.found()
    # Covering a folder the interpreter lives in would hide it from the child.
    private = mounts.private_mounts_work() and not any(
        path.startswith(folder + "/") for folder in found.folders
        for path in [python, *stdlib_folders(python)]
    )  # fmt: skip
    return Launcher(Isolation.UID, python, own_network, note, found, private)


def _system_python() -> str | None:
    for candidate in SYSTEM_PYTHONS:
        real = os.path.realpath(candidate)
        if os.path.exists(real) and _usable(real):
            return real
    return None


def _usable(python: str) -> bool:
    try:
        version = subprocess.run(
            [python, "-S", "-c", "import sys; print(sys.version_info >= (3, 10))"],
            capture_output=True, text=True, timeout=20, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return False
    return (
        version.stdout.strip() == "True"
        and unreadable_folder([python, *stdlib_folders(python)]) is None
    )


def unreadable_folder(paths: list[str]) -> str | None:
    """The first folder on the way to ``paths`` that other users cannot enter, if any."""
    for path in paths:
        for folder in [*reversed(Path(path).parents), Path(path)]:
            mode = folder.stat().st_mode
            needed = stat.S_IXOTH if folder.is_dir() else stat.S_IROTH
            if not mode & needed:
                return str(folder)
    return None


@functools.cache
def version_of(python: str) -> tuple[int, int]:
    """``(major, minor)`` of an interpreter."""
    if os.path.realpath(python) == interpreter():
        return sys.version_info[:2]
    found = subprocess.run([python, "-S", "-c", "import sys; print(*sys.version_info[:2])"],
                           capture_output=True, text=True, timeout=20, check=True)  # fmt: skip
    major, minor = found.stdout.split()
    return int(major), int(minor)


def command(
    launcher: Launcher,
    workspace: Workspace,
    boot: str,
    hidden: tuple[Path, ...],
    budget: writable.Budget | None = None,
) -> list[str]:
    """The command line that starts the kernel for ``workspace``: ``-s -S`` (no user site, no
    ``site``: no site-packages on the path), and ``-P`` where it exists (3.11) so the current
    folder is not on it either (the boot code removes it on older versions). With a uid of
    its own and private folders, ``budget`` is the size of its tmpfs."""
    flags = ["-P", "-s", "-S"] if version_of(launcher.python) >= (3, 11) else ["-s", "-S"]
    python = [launcher.python, *flags, "-c", boot]
    if launcher.isolation is not Isolation.BWRAP:
        if launcher.isolation is Isolation.UID and launcher.private_folders:
            assert launcher.writable is not None and budget is not None
            return [*mounts.prefix(workspace.folder, workspace.scratch, launcher.writable,
                                   budget, launcher.own_network), *python]  # fmt: skip
        if launcher.isolation is Isolation.UID and launcher.own_network:
            return ["unshare", "--net", "--", *python]
        return python
    inside = [
        *("--ro-bind", str(workspace.submission), SANDBOX_ROOT),
        *("--chdir", SANDBOX_TMP),
        "--clearenv",
    ]
    for name, value in child_environment(SANDBOX_TMP).items():
        inside += ["--setenv", name, value]
    return [*_bwrap_prefix(hidden, launcher.python), *inside, *python]


def child_paths(launcher: Launcher, workspace: Workspace) -> tuple[str, str]:
    """Where the child sees the copy of the submission, and its temporary folder."""
    if launcher.isolation is Isolation.BWRAP:
        return SANDBOX_ROOT, SANDBOX_TMP
    return str(workspace.submission), str(workspace.scratch)


def child_uid(launcher: Launcher) -> int | None:
    """A fresh uid for the child, when the grader runs as root and the isolation uses one."""
    if launcher.isolation is Isolation.NONE or os.getuid() != 0:
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


def _bwrap_prefix(hidden: tuple[Path, ...], python: str | None = None) -> list[str]:
    prefix = [
        "bwrap",
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
    for tree in _python_trees(python or interpreter()):
        # Run as root, bubblewrap creates missing parent folders (/root, for a pyenv
        # Python) with mode 0700, which the child's own uid could not enter.
        for parent in reversed(Path(tree).parents[:-1]):
            prefix += ["--perms", "0755", "--dir", str(parent)]
        prefix += ["--ro-bind-try", tree, tree]
    for folder in _hidden_folders(hidden):
        prefix += ["--tmpfs", folder]
    for library in _escape_hatches():
        prefix += ["--ro-bind", "/dev/null", library]
    prefix += ["--dev", "/dev"]
    # Sticky and writable by all: the child drops to a uid of its own inside.
    prefix += ["--perms", "1777", "--size", str(SANDBOX_TMP_BYTES), "--tmpfs", SANDBOX_TMP]
    return prefix


def _python_trees(python: str) -> list[str]:
    """The system's libraries and the interpreter's installation, each once."""
    trees = list(SYSTEM_TREES)
    for path in (sys.base_prefix, sys.base_exec_prefix, str(Path(python).parent)):
        if not any(path == tree or path.startswith(tree + "/") for tree in trees):
            trees.append(path)
    return trees


def _escape_hatches() -> list[str]:
    """The C extensions that would let Python code read and write raw memory (``_ctypes``):
    hidden behind an empty file, so importing them fails even if the guard were bypassed."""
    dynload = Path(sysconfig.get_path("platstdlib")) / "lib-dynload"
    if not dynload.is_dir():
        return []
    return sorted(str(path) for path in dynload.glob("_ctypes*.so"))


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
    trees = _python_trees(interpreter())
    return [
        folder
        for folder in sorted(candidates)
        if os.path.isdir(folder) and any(folder.startswith(tree + "/") for tree in trees)
    ]
