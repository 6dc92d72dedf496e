"""Makes `tests` importable as a package root (tests.reference, tests.cupcrab.positions)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
