"""The command line: one Typer app, its commands, and the contract they share.

* :mod:`.app`: the ``passagent`` app and the commands that fit on one screen.
* :mod:`.solve`, :mod:`.sweep`, :mod:`.apply`: the larger commands.
* :mod:`.support`: errors, signals and crashes around every command; :mod:`.exit_codes` the
  exit-code table (``docs/cli.md``).
"""
