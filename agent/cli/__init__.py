"""The command line: one Typer app, its commands, and the contract they share.

* :mod:`.app`: the ``passagent`` app and the commands that fit on one screen.
* :mod:`.solve`, :mod:`.sweep`, :mod:`.apply`: the larger commands.
* :mod:`.support`: errors, signals and crashes around every command; the exit-code table
  every command (and a sweep's runs) uses is :mod:`..exit_codes` (``docs/cli.md``).
"""
