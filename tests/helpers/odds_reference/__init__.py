"""Test-only oracle: the exact-odds code as it was before it was made fast (branch ``fastodds``),
copied verbatim (only its imports point here), so the equivalence tests and ``tests.bench.odds`` can
hold the new code to the very same Fractions. Not used by the gateway."""
