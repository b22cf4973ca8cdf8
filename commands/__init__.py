"""The command line's floor: every ``belote-table`` sub-command and the entry point.

Each module here holds one command group's argparse and handlers, and composes
the domain packages below it (``referee``, ``firmware_bridge``, ``calibration``,
``vision``, ``web_dashboard``); those packages hold no argparse and no command
handler of their own. Heavy imports (OpenCV, Flask, pyserial) stay inside the
handlers so ``belote-table referee legal`` starts fast.
"""
