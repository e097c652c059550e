"""Golden models: one module per paper, bit-faithful to its algorithm (see doc/architecture.md)."""
