"""The core's measuring tools, run as ``python -m core.tools.<name>``; the library never
imports them: bench (the core's speed, against the C reference of anchor), tournament
and ladder (the AI levels' strength and speed), versus (two AI players against each
other), calibrate (the judge's calibration)."""
