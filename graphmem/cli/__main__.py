"""``python -m graphmem.cli``: the ``graphmem`` command (for a venv whose scripts are not on PATH)."""

from graphmem.cli import main

main()
