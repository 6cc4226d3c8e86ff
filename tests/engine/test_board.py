from __future__ import annotations

from collections import Counter

import networkx as nx

from sy_tools.engine.board import Board, Connection
from sy_tools.engine.stations import mask_of, stations_of
from sy_tools.engine.tickets import Ticket, Transport


def test_london_counts(london):
    assert len(london) == 199
    assert Counter(c.transport for c in london.connections) == {
        Transport.TAXI: 346,
        Transport.BUS: 99,
        Transport.UNDERGROUND: 20,
        Transport.FERRY: 3,
    }


def test_station_74(london):
    """The London map's worked facts: 74 has underground to 46; taxi to 58, 73, 75, 92; bus to 58, 94."""
    assert london.destinations(74, Ticket.TAXI) == (58, 73, 75, 92)
    assert london.destinations(74, Ticket.BUS) == (58, 94)
    assert london.destinations(74, Ticket.UNDERGROUND) == (46,)


def test_ferry_edges_exactly(london):
    ferry = {(c.a, c.b) for c in london.connections if c.transport is Transport.FERRY}
    assert ferry == {(108, 115), (115, 157), (157, 194)}


def test_underground_153_140(london):
    assert Transport.UNDERGROUND in london.transports_between(153, 140)


def test_pair_joined_by_two_kinds(london):
    assert london.transports_between(1, 46) == {Transport.BUS, Transport.UNDERGROUND}


def test_only_black_rides_the_ferry(london):
    # 194's only non-taxi neighbour is 157 by ferry
    for t in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND):
        assert 157 not in london.destinations(194, t)
    assert 157 in london.destinations(194, Ticket.BLACK)
    assert 115 in london.destinations(108, Ticket.BLACK)


def test_black_is_union_of_all_transports(london):
    for s in london.stations:
        union = 0
        for t in Transport:
            union |= london.transport_neighbours[t][s]
        assert london.neighbours[Ticket.BLACK][s] == union


def test_step_equals_union_of_neighbours(london):
    import random

    rng = random.Random(7)
    for _ in range(300):
        subset = rng.sample(london.stations, rng.randint(0, 60))
        for t in Ticket:
            expect = 0
            for s in subset:
                expect |= london.neighbours[t][s]
            assert london.step(mask_of(subset), t) == expect


def test_masks_round_trip():
    assert stations_of(mask_of([3, 1, 199])) == [1, 3, 199]
    assert stations_of(0) == []


def test_to_networkx(london):
    g = london.to_networkx()
    assert isinstance(g, nx.MultiGraph)
    assert g.number_of_nodes() == 199 and g.number_of_edges() == 468
    assert {d["transport"] for _, _, d in g.edges(1, data=True)} >= {"bus", "underground"}
    assert g.nodes[1]["x"] == 190 and g.nodes[1]["y"] == 40
    assert nx.is_connected(g)


def test_board_without_coordinates():
    b = Board.build("tiny", [1, 2, 3], [Connection.of(2, 1, "taxi"), Connection.of(2, 3, "ferry")])
    assert b.coords is None
    assert b.destinations(2, Ticket.TAXI) == (1,)
    assert b.destinations(2, Ticket.BLACK) == (1, 3)
    assert "x" not in b.to_networkx().nodes[1]
