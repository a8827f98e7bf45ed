"""The OpenAI Agents SDK's own session tests, from the pinned sdist: fetched once, never copied.

The version is the one the ``agents`` extra pins in ``pyproject.toml``, which must also be
the one installed: the tests of one release run against that release. The sdist is fetched
with pip from PyPI into a cache outside the repository (``$AGENT_KIT_CACHE``, by default
``~/.cache/agent-persistence-kit``), checked against its SHA-256 (code from the network runs
here only if it is exactly the file this list was written for), and unpacked with tarfile's
``data`` filter, which refuses absolute paths, links out of the folder and device files.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tarfile
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Final

KIT_ROOT: Final = Path(__file__).resolve().parents[2]
#: The sha256 of openai_agents-<version>.tar.gz on PyPI, per pinned version.
SDIST_SHA256: Final = {
    "0.24.0": "4b4b285f4fed81fdf1b4ac426a9101658d9cd29b4fb1aaeee18f639b77e704e3",
}
#: The SDK's session tests, as the sdist holds them.
SESSION_TEST_FILES: Final = (
    "tests/memory/test_session.py",
    "tests/memory/test_session_limit.py",
    "tests/memory/test_session_context_wrapper.py",
    "tests/memory/test_session_persistence_sanitize.py",
)


class SdkSourcesError(RuntimeError):
    """The SDK's tests cannot be had: a version mismatch, no network, or a wrong file."""


def pinned_version() -> str:
    """Return the version of ``openai-agents`` that the ``agents`` extra pins with ``==``."""
    project = tomllib.loads((KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for requirement in project["project"]["optional-dependencies"]["agents"]:
        found = re.fullmatch(r"openai-agents==([\w.]+)", requirement.replace(" ", ""))
        if found:
            return found.group(1)
    raise SdkSourcesError("pyproject.toml's agents extra pins no openai-agents==VERSION")


def sdk_sources() -> Path:
    """Return the unpacked sdist of the pinned SDK, fetching it the first time.

    Raises:
        SdkSourcesError: the installed SDK is another version, the sdist cannot be fetched,
            or it is not the file whose hash is recorded here.
    """
    version = pinned_version()
    installed = metadata.version("openai-agents")
    if installed != version:
        raise SdkSourcesError(
            f"openai-agents {installed} is installed, but pyproject.toml pins {version}:"
            ' run pip install -e ".[dev]" again'
        )
    cache = Path(os.environ.get("AGENT_KIT_CACHE", Path.home() / ".cache/agent-persistence-kit"))
    unpacked = cache / f"openai_agents-{version}"
    if not (unpacked / SESSION_TEST_FILES[0]).is_file():
        _unpack(_checked_sdist(cache, version), cache)
    return unpacked


def _checked_sdist(cache: Path, version: str) -> Path:
    archive = cache / f"openai_agents-{version}.tar.gz"
    if not archive.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        wanted = f"openai-agents=={version}"
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "--no-binary", ":all:", "--dest", str(cache), wanted]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or not archive.is_file():
            raise SdkSourcesError(f"pip could not fetch the sdist:\n{done.stderr[-2000:]}")
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != SDIST_SHA256.get(version):
        archive.unlink()
        raise SdkSourcesError(f"{archive.name} has sha256 {digest}, not the one recorded here")
    return archive


def _unpack(archive: Path, cache: Path) -> None:
    with tarfile.open(archive) as sdist:
        sdist.extractall(cache, filter="data")
