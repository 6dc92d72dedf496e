"""The learning modules depend one way: each environment on core.rl.per_game, never on the
other environment, so a Gymnasium user does not import PettingZoo."""

import subprocess
import sys


def imported_after(statement: str) -> set[str]:
    probe = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    return set(run.stdout.split())


def test_a_gymnasium_environment_does_not_import_pettingzoo():
    loaded = imported_after("import core.rl; core.rl.gym_env('cup-the-crab', 2)")
    assert "core.rl.gymnasium_env" in loaded and "gymnasium" in loaded
    assert "pettingzoo" not in loaded and "core.rl.pettingzoo_env" not in loaded


def test_the_shared_module_imports_no_learning_library():
    loaded = imported_after("import core.rl.per_game")
    assert not {"gymnasium", "pettingzoo", "core.rl.pettingzoo_env", "core.rl.gymnasium_env"} & loaded
