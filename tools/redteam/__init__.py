"""The red-team corpus: adversarial passes, one per publicly reported exploit pattern, and honest
passes beside them; :func:`run_corpus` evaluates each and reports what was caught.

See :mod:`.runner` and ``docs/evaluation.md`` ("Integrity").
"""

from .runner import CORPUS, Entry, Outcome, format_table, load_corpus, run_corpus, summary

__all__ = ["CORPUS", "Entry", "Outcome", "format_table", "load_corpus", "run_corpus", "summary"]
