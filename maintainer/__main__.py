"""``python -m maintainer COMMAND``: the maintainer's tools, from the kit's own folder.

* ``release OUT_DIR [--lang zh]``: write the learner's copy and prove it works
  (:mod:`maintainer.release.command`).
* ``new-function NAME``: scaffold a new exercise function, every piece a placeholder, and say
  what is left to fill in; ``check-function NAME`` (or ``new-function --check NAME``) lists
  which pieces still are placeholders, exit 1 while any is (:mod:`maintainer.new_function`).

``python -m maintainer.translations`` keeps the Chinese in step with the English.
"""

from __future__ import annotations

import sys

from grader.i18n import apply_language, language_option, text

COMMANDS = ("release", "new-function", "check-function")


def main(argv: list[str] | None = None) -> int:
    """Run one of the maintainer's commands; return its exit status (2: no such command)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The language comes first: the command's help texts are already translated.
    apply_language(language_option(argv))
    if not argv or argv[0] not in COMMANDS:
        print(text("cli.maintainer.usage", commands=", ".join(COMMANDS)), file=sys.stderr)
        return 2
    if argv[0] in ("new-function", "check-function"):
        from maintainer import new_function

        return new_function.main(argv[1:], command=argv[0])
    from maintainer.release import command

    return command.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
