"""Property-based tests of pure code: each test checks a rule on many generated examples
(hypothesis), so each takes seconds where an example-based test takes milliseconds.

The full suite and CI run them. `tests/unit` holds the example-based tests of the same code and
runs in seconds; a test that reads the shared corpus lives in `tests/integration`
(`test_*_corpus.py`). Strategies and samples that a property test shares with a unit test live in
one module (`tests/properties/*_strategies.py`, `tests/*_samples.py`) that both import.
"""
