"""Building the static site: Pyodide, the grader, hypothesis, the stubs and an editor.

Everything the page needs is copied into one folder, so that any static host serves it and
the page asks nothing of any other origin:

* ``pyodide/``: the runtime and its standard library, from the npm package ``pyodide``;
* ``python/engine-<hash>.zip``: the ``grader`` package, the stubs' ``exercises/__init__.py``,
  and hypothesis with its one dependency, copied from this environment, where
  :data:`grader.pins.HYPOTHESIS` is installed from its pure-Python wheel (the engine worker
  unpacks the zip into its ``site-packages``, no micropip, no CDN);
* ``editor.js``: CodeMirror 6 with Python highlighting, bundled by esbuild;
* ``exercises.json``: the stubs and their docstrings in every language the grader's catalogs
  have, as git holds them (never the working tree's ``exercises/``, which is the learner's
  work: :mod:`grader.frontends.stubs`), each task's functions, the words the page shows,
  and the language the page opens in (this copy's, if one was chosen: else the browser's);
* the page's own files (``static/``) and ``manifest.json``, which names the zip by its hash
  (a new build is a new name: a browser never mixes an old engine with a new page).

npm runs at build time only (``npm ci`` on the committed lock file), in a cache folder kept
between builds (``$KIT_SITE_CACHE``, default ``~/.cache/agent-persistence-kit/site``).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import os
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from grader.engine.bank import BANK_NAME
from grader.frontends.site.texts import page_texts
from grader.frontends.stubs import NoCommittedStubs, committed_stubs, is_stub
from grader.i18n import LANGUAGES, edition, text
from grader.i18n.choice import chosen_language
from grader.pins import HYPOTHESIS
from grader.transport.workspace import EXERCISE_MODULES, IGNORED, KIT_ROOT

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
#: The files of the npm package ``pyodide`` the page loads (the rest are for Node).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
    "pyodide-lock.json",
)  # fmt: skip
#: What the engine worker needs besides the grader: hypothesis and its dependency.
DISTRIBUTIONS = ("hypothesis", "sortedcontainers")
#: The file that marks a folder as a site this command built (and may build over).
MANIFEST = "manifest.json"
#: The editor's entry point, bundled by esbuild.
EDITOR_ENTRY = "editor-entry.js"
PAGE_FILES = ("index.html", "style.css", "app.js", "engine.js", "kernels.js", "kernel.js")


class BuildError(Exception):
    """The site cannot be built; the message says why and what to do."""


@dataclass(frozen=True)
class Built:
    """What a build wrote: the folder, its size in bytes, and the files in it."""

    folder: Path
    size: int
    files: int


def build(out: Path, cache: Path | None = None) -> Built:
    """Build the site into ``out`` (created, or a site built before: replaced whole).

    Raises:
        BuildError: ``out`` holds something else, npm is missing or fails, or the installed
            hypothesis is not the pinned one. Nothing is written to ``out`` then.
    """
    # Absolute: esbuild runs in the npm folder, where a relative path would land.
    out = out.absolute()
    _check_destination(out)
    _check_hypothesis()
    stubs = site_stubs()
    modules = _npm_modules(cache or default_cache())
    staging = out.with_name(f".{out.name}.building")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        _write_site(staging, modules, stubs)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    files = [path for path in out.rglob("*") if path.is_file()]
    return Built(out, sum(path.stat().st_size for path in files), len(files))


def default_cache() -> Path:
    configured = os.environ.get("KIT_SITE_CACHE")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "agent-persistence-kit" / "site"


def _check_destination(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise BuildError(text("site.build.is_a_file", path=out))
    if out.is_dir() and any(out.iterdir()) and not (out / MANIFEST).is_file():
        raise BuildError(text("site.build.not_empty", path=out))


def _check_hypothesis() -> None:
    installed = importlib.metadata.version("hypothesis")
    if installed != HYPOTHESIS:
        raise BuildError(text("site.build.hypothesis", installed=installed, pinned=HYPOTHESIS))


def _npm_modules(cache: Path) -> Path:
    """``node_modules`` installed from the committed lock file (once per lock file)."""
    lock = (HERE / "package-lock.json").read_bytes()
    folder = cache / hashlib.sha256(lock).hexdigest()[:16]
    modules = folder / "node_modules"
    if (folder / ".complete").is_file():
        return modules
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(text("site.build.no_npm"))
    folder.mkdir(parents=True, exist_ok=True)
    with _alone(folder / ".lock"):
        if not (folder / ".complete").is_file():  # another build may have installed it
            _npm_ci(npm, folder)
    return modules


@contextmanager
def _alone(lock: Path) -> Iterator[None]:
    """Hold ``lock`` while the body runs: two builds at once (two ``python -m grader site``,
    or test workers) would run ``npm ci`` in the same folder, each deleting what the other
    wrote. Where there is no ``fcntl`` (Windows) the body runs unguarded."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(lock, "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _npm_ci(npm: str, folder: Path) -> None:
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(HERE / name, folder / name)
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        output = done.stderr.strip()[-2000:]
        raise BuildError(text("site.build.npm_failed", folder=folder, output=output))
    (folder / ".complete").write_text("npm ci done\n", encoding="utf-8")


def site_stubs() -> dict[str, dict[str, str]]:
    """Each language's stubs, from git; where this is not a git checkout of the kit (a
    learner's copy), the copy's own stubs in ``exercises/``, in its one language.

    Raises:
        BuildError: no git, and ``exercises/`` no longer holds stubs (a learner's work).
    """
    try:
        return {language: committed_stubs(language) for language in LANGUAGES}
    except NoCommittedStubs:
        pass
    files = {name: (KIT_ROOT / "exercises" / name).read_text(encoding="utf-8")
             for name in ("__init__.py", *EXERCISE_MODULES)}  # fmt: skip
    edited = [name for name, source in files.items() if not is_stub(source)]
    if edited:
        raise BuildError(text("site.build.edited_stubs", name=edited[0]))
    return {edition.LANGUAGE or "en": files}


def _write_site(site: Path, modules: Path, stubs: dict[str, dict[str, str]]) -> None:
    (site / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copyfile(modules / "pyodide" / name, site / "pyodide" / name)
    _bundle_editor(modules, site / "editor.js")
    engine = engine_zip(stubs.get("en", next(iter(stubs.values())))["__init__.py"])
    engine_name = f"python/engine-{hashlib.sha256(engine).hexdigest()[:12]}.zip"
    (site / "python").mkdir()
    (site / engine_name).write_bytes(engine)
    _write_json(site / "exercises.json", exercises(stubs))
    for name in PAGE_FILES:
        shutil.copyfile(STATIC / name, site / name)
    _write_json(site / MANIFEST, {"engine": engine_name, "pyodide": _pyodide_version(modules)})


def _bundle_editor(modules: Path, destination: Path) -> None:
    esbuild = modules / ".bin" / "esbuild"
    done = subprocess.run(
        [str(esbuild), str(STATIC / EDITOR_ENTRY), "--bundle", "--minify", "--format=esm",
         f"--outfile={destination}", "--log-level=error"],
        cwd=modules.parent,
        capture_output=True,
        text=True,
        env={**os.environ, "NODE_PATH": str(modules)},
    )  # fmt: skip
    if done.returncode != 0:
        raise BuildError(text("site.build.esbuild_failed", output=done.stderr.strip()[-2000:]))


def engine_zip(exercises_init: str) -> bytes:
    """The engine worker's Python: the grader, the stubs' ``__init__`` (``exercises_init``),
    hypothesis (the same bytes for the same kit and environment)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in [*_python_files(KIT_ROOT / "grader"), *_banks()]:
            _add(archive, path.relative_to(KIT_ROOT).as_posix(), path.read_bytes())
        _add(archive, "exercises/__init__.py", exercises_init.encode("utf-8"))
        for name in DISTRIBUTIONS:
            for relative, data in _distribution_files(name):
                _add(archive, relative, data)
    return buffer.getvalue()


def _python_files(folder: Path) -> list[Path]:
    return sorted(
        path
        for path in folder.rglob("*.py")
        if path.is_file() and not any(part in IGNORED for part in path.parts)
    )


def _banks() -> list[Path]:
    """Each task's examples bank: the page grades from it, as the command line does."""
    return sorted((KIT_ROOT / "grader" / "tasks").rglob(BANK_NAME))


def _distribution_files(name: str) -> list[tuple[str, bytes]]:
    """An installed distribution's modules and metadata, as its wheel holds them."""
    distribution = importlib.metadata.distribution(name)
    found = []
    for file in distribution.files or []:
        relative = file.as_posix()
        if relative.startswith("..") or "__pycache__" in relative or relative.endswith(".pyc"):
            continue
        found.append((relative, Path(str(file.locate())).read_bytes()))
    return sorted(found)


def exercises(stubs: dict[str, dict[str, str]]) -> dict[str, object]:
    """What the page shows besides the report: each language's stubs and words, and the
    language it opens in (null: the browser's)."""
    files = {language: {name: source[name] for name in EXERCISE_MODULES}
             for language, source in stubs.items()}  # fmt: skip
    return {"files": files, "language": chosen_language(), **page_texts(stubs)}


def _pyodide_version(modules: Path) -> str:
    package = json.loads((modules / "pyodide" / "package.json").read_text(encoding="utf-8"))
    return str(package["version"])


def _write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    # A fixed date: the zip, and so its name, depends on the files only.
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)
