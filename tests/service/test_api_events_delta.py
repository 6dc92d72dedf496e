"""Delta events (`?delta=true`): what changed in the viewer's body, never more than it may see."""

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from service.events import patches
from tests.service.play import auth, create, play_to_end, tokens_of
from tests.service.sse import Listener
from tests.service.test_api_events import events_url, over
from tests.service.test_api_leaks import assert_clean, play_selections_until

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
def test_a_patch_turns_the_body_before_into_the_body_after(before, after):
    assert patches.apply(copy.deepcopy(before), patches.diff(before, after)) == after


def bodies(listener: Listener) -> dict[int, dict]:
    """The viewer's game body at each version, rebuilt from a delta stream's events."""
    body, rebuilt = None, {}
    for event in listener.events:
        if event.event == "game":
            body = event.data["game"]
        else:
            assert event.event == "delta" and body is not None
            body = patches.apply(body, event.data["patch"])
        rebuilt[int(event.id)] = copy.deepcopy(body)
    return rebuilt


def test_delta_streams_rebuild_every_viewers_body_and_entry_at_every_version(api, client):
    for game_name, players in (("cup-the-crab", 3), ("crabe-vs-poulpe", 2)):
        game = create(client, game_name, players)
        tokens = tokens_of(game)
        viewers = [*tokens, None]
        def headers(seat, tokens=tokens):
            return auth(tokens[seat]) if seat is not None else {}
        whole = {seat: Listener(events_url(api.url, game["id"]), headers(seat), until=over)
                 for seat in viewers}
        deltas = {seat: Listener(events_url(api.url, game["id"], delta="true"), headers(seat))
                  for seat in viewers}  # the server ends each once the game is over
        play_to_end(client, game, seed=11)
        for seat in viewers:
            full, delta = whole[seat].join(), deltas[seat].join()
            assert delta.ended_by_server and delta.ids() == full.ids(), seat
            assert [e.event for e in delta.events[1:]] == ["delta"] * (len(delta.events) - 1)
            assert bodies(delta) == {int(e.id): e.data["game"] for e in full.events}, seat
            for mine, theirs in zip(delta.events, full.events):
                assert mine.data["entry"] == theirs.data["entry"]
                assert_clean(mine.data, tokens, seat)


def test_a_seats_secret_selection_changes_no_delta_that_others_receive(api, client):
    """The two-world leak test on delta streams: games dealt alike that differ only in
    seat 1's selection give every other viewer the same deltas."""
    games = [create(client, "cup-the-crab", 3, seed=77, options={"first_player": 0})
             for _ in range(2)]
    for game in games:
        play_selections_until(client, game, 2, random.Random(7))
    version = client.get(f"/v1/games/{games[0]['id']}").json()["version"]
    streams = {(index, caller): Listener(
        events_url(api.url, game["id"], delta="true"),
        {} if caller is None else auth(tokens_of(game)[caller]),
        until=lambda events: int(events[-1].id) >= version + 2)
        for index, game in enumerate(games) for caller in (None, 0, 2)}
    choices = client.get(f"/v1/games/{games[0]['id']}",
                         headers=auth(tokens_of(games[0])[1])).json()["legal_moves"]
    for game, move in zip(games, (choices[0], choices[-1])):  # seat 1 selects apart
        client.post(f"/v1/games/{game['id']}/moves", json={"move": move},
                    headers=auth(tokens_of(game)[1]))
    move = random.Random(5).choice(client.get(  # then seat 0 selects alike in both
        f"/v1/games/{games[0]['id']}", headers=auth(tokens_of(games[0])[0])).json()["legal_moves"])
    for game in games:
        client.post(f"/v1/games/{game['id']}/moves", json={"move": move},
                    headers=auth(tokens_of(game)[0]))
    for caller in (None, 0, 2):
        seen = []
        for index in range(2):
            events = [event.data for event in streams[(index, caller)].join().events]
            events[0]["game"].pop("id")
            for event in events:  # when a change was committed is public: it arrives then
                (event["entry"] or {}).pop("at", None)
            seen.append(events)
        assert len(seen[0]) == 3 and seen[0] == seen[1], f"seat {caller} can tell them apart"
