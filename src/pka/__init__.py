"""pka: an open public-key accelerator.

Layers (see doc/architecture.md):
  pka.model   bit-faithful golden models, one module per paper/engine
  pka.sim     Verilator build cache and the generic engine harness
  pka.rtl     drivers that run the RTL engines through pka.sim
  pka.cli     the `pka` command
"""

__version__ = "0.1.0"
