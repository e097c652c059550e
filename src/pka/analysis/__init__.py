"""Analyses that run the hardware many times: state access of the simulated pka_top (state), the
fault-injection campaign (fault); leakage assessment and wipe checks build on the same state table."""
