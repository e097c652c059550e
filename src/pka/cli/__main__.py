"""`python -m pka.cli`: the `pka` command."""

from pka.cli import main

main()
