"""`python -m cleveragents`: the `agents` command, for when its script is not on PATH."""

from cleveragents.cli.main import main

main()
