"""Sweeps: many tasks times many models, scheduled, resumable, viewed.

* :mod:`.runner`: a sweep from its plan to its rows; :mod:`.worker` one cell in its process.
* :mod:`.ray_pool`: cells on Ray; :mod:`.selectors`: which tasks and models.
* :mod:`.view`: a sweep's progress and table.
"""
