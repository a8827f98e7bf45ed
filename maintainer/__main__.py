"""``python -m maintainer COMMAND``: the maintainer's tools, from the kit's own folder.

* ``release OUT_DIR [--lang zh]``: write the learner's copy and prove it works
  (:mod:`maintainer.release.command`).

``python -m maintainer.translations`` keeps the Chinese in step with the English.
"""

from __future__ import annotations

import sys

from grader.i18n import apply_language, language_option, text

COMMANDS = ("release",)


def main(argv: list[str] | None = None) -> int:
    """Run one of the maintainer's commands; return its exit status (2: no such command)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The language comes first: the command's help texts are already translated.
    apply_language(language_option(argv))
    if not argv or argv[0] not in COMMANDS:
        print(text("cli.maintainer.usage", commands=", ".join(COMMANDS)), file=sys.stderr)
        return 2
    from maintainer.release import command

    return command.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
