"""``python -m tgneo.cli`` is ``tgneo``."""

from tgneo.cli import cli

cli()
