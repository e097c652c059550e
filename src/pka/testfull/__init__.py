"""pka.testfull: `make test-full`, every cycle figure of the README simulated at full size.

    cases.py     the registry: one Case per README cycle figure (its name, the figure as the README
                 writes it, the README rows it proves, and a function that runs it on the RTL)
    readme.py    the parser of the README's two cycle tables (what tests/test_test_full.py checks
                 the registry against, so that a README edit without a case fails CI)
    __main__.py  the runner: `python -m pka.testfull [--list] [-k NAMES] [--model]`, a table on
                 stdout and build/test-full/summary.json

A case runs the configuration on the simulated RTL, checks the result against pow() or
`cryptography`, and asserts cycles == the golden model's prediction == the README's number. The
full run is hours (csa2's bit-serial 1024-bit modexp alone is about an hour), so it is not in CI;
`--model` runs every case on the golden models (seconds to minutes) to check the registry itself.
"""
