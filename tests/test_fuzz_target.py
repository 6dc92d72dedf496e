"""The fuzz target of core.from_bytes (tests/fuzz/from_bytes.py) without the fuzzer: it
accepts every real state, refuses damage quietly, and its checks can fail."""

import pytest

import core
from tests.fuzz.from_bytes import CUP, Inconsistent, Target, blob_of, seed_inputs, verify_accepted


def test_every_seed_input_is_a_real_state_that_passes_the_target():
    target = Target()
    inputs = seed_inputs()
    for data in inputs:
        target(data)
    assert target.counts == {"executions": len(inputs), "accepted": len(inputs), "refused": 0}


def test_damaged_inputs_are_refused_not_crashes():
    target = Target()
    for data in (b"", b"\x00", b"\x01", b"\x02" + b"\xff" * 300, b"\x00CG\x01\x01"):
        target(data)
    assert target.counts["refused"] == 5


def test_an_input_frames_a_payload_with_a_valid_checksum():
    state = core.new_game("cup-the-crab", 3, seed=2)
    assert blob_of(bytes((CUP,)) + state.to_bytes()[4:-4]) == state.to_bytes()


def test_the_target_flags_a_state_that_does_not_store_back_to_its_bytes():
    state = core.new_game("crabe-vs-poulpe", 2, seed=2)
    with pytest.raises(Inconsistent, match="same bytes"):
        verify_accepted(state, state.to_bytes() + b"\x00", 0)
