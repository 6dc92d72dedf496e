"""Measuring tools of the AI, run as ``python -m core.tools.<name>``; the library never
imports them (versus: two players against each other; calibrate: the judge's calibration)."""
