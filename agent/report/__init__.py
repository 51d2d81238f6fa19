"""Reports: tables, plots and the HTML viewer over runs and sweeps.

* :mod:`.build`: a report from runs; :mod:`.tables`, :mod:`.plots`, :mod:`.inductor` its parts.
* :mod:`.html`: the static HTML viewer.
"""
