"""The report's static HTML site: leaderboard, task pages and trajectory viewer (:mod:`.site`)."""

from .site import write_site

__all__ = ["write_site"]
