"""Helpers for the learner tools' tests: the command line in this process (on a report given
as data), and the environment a learner's own process would run in, with the locale under the
test's control."""

from __future__ import annotations

import os
from pathlib import Path

from grader.i18n import LOCALE_VARIABLES
from grader.i18n.choice import LANGUAGE_VARIABLE
from tests.grader.cli_in_process import cli_in_process

KIT_ROOT = Path(__file__).resolve().parents[2]


def environment(**variables: str) -> dict[str, str]:
    """This process's environment without its locale variables (nor a language passed on in
    ``KIT_LANGUAGE``), plus ``variables``.

    The kit comes first on the path: the environment may hold an editable install of another
    checkout of the kit, which a command run outside this folder would otherwise import.
    """
    dropped = (*LOCALE_VARIABLES, LANGUAGE_VARIABLE)
    clean = {key: value for key, value in os.environ.items() if key not in dropped}
    clean["PYTHONPATH"] = os.pathsep.join(
        [str(KIT_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    return {**clean, **variables}


__all__ = ["cli_in_process"]
