"""A log entry as the live store keeps it, and a metadata's undo: both read back exactly."""

from hypothesis import given, strategies as st

from service.store import entries, versions

ENTRY = (b'{"version":7,"seat":2,"kind":"move","move":{"type":"select","cards":["cup-5",'
         b'"crab","bottle"]},"at":"2026-12-01T19:25:51.740Z"}')


def test_an_entry_packed_with_the_first_dictionary_reads_back_forever():
    """Entries in Redis were packed with entries-1.zdict: rewriting it would garble them."""
    packed = b'\x01\xc3\xb6r\x90\xbcz\x19>\x9d\x88\xbf\xc5\x05\x1eS35\xd43\x07G\x18\x00'
    assert entries.unpack(packed) == ENTRY


def test_an_entry_logged_before_packing_reads_as_it_is():
    assert entries.unpack(ENTRY) == ENTRY


@given(st.binary(max_size=300))
def test_any_entry_packs_and_unpacks_to_itself(entry):
    assert entries.unpack(entries.pack(b"{" + entry)) == b"{" + entry


@given(st.binary(max_size=200), st.binary(max_size=200))
def test_an_undo_turns_the_new_metadata_back_into_the_old(old, new):
    change = versions.undo(old, new)
    assert versions.undone(new, change) == old
    assert (change == b"") == (old == new)
    assert len(change) <= len(old) + 5


def test_an_undo_keeps_only_the_bytes_that_changed():
    old, new = b'{"deadlines":[null,1764619200.5]}', b'{"deadlines":[1764619300.25,null]}'
    assert versions.undo(old, new) == b"\0" + bytes([0, 14, 0, 2]) + b"null,1764619200.5"
