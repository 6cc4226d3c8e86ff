"""``sy-tools heatmap``."""

from __future__ import annotations

import click

from ..analysis.tracker import WEIGHTS
from ..errors import InputError
from ..formats.values import HEATMAP_LAYERS
from .app import main
from .common import say_written
from .options import (
    TICKET_CHOICES,
    ignore_illegal_option,
    map_option,
    moves_option,
    round_option,
    time_limit_option,
)


@main.command("heatmap", short_help="Heatmaps over the board: possible, history, reach, coverage, cordon, winrate, "
              "story.")
@click.argument("game", required=False)
@click.option("--layer", type=click.Choice(list(HEATMAP_LAYERS)), default="possible", show_default=True,
              help="What to draw (see the list above).")
@click.option("-o", "--output", "out", default=None,
              help="Output file (.png, .svg, .pdf; story also .gif). Default: LAYER.png (story.gif)")
@round_option("Draw")
@click.option("--weights", type=click.Choice(list(WEIGHTS)), default="paths", show_default=True,
              help="possible, history, story: how likely each consistent route is (as in 'possible').")
@click.option("--from", "from_", multiple=True,
              help="reach: starting station(s), e.g. --from 13,46 (with GAME: instead of Mr. X's possible set).")
@click.option("--piece-tickets", "tickets", default=None,
              help="reach without GAME: the moving piece's ticket limits, e.g. taxi=10,bus=8,underground=4 "
                   "(black=N rides everything; default: no limit).")
@click.option("--tickets", "tickets_alias", default=None, hidden=True)
@click.option("--panels", is_flag=True, help="history: one small board per move instead of the route.")
@moves_option()
@time_limit_option(10.0, "the cordon layer's whole search")
@map_option("reach without GAME, winrate: the map")
@click.option("--dpi", type=click.IntRange(min=20, max=600), default=None, help="Dots per inch (default 100).")
@click.option("--size", default=None, help="Figure size in inches, WIDTHxHEIGHT (default 16x12).")
@ignore_illegal_option
def heatmap_cmd(game: str | None, layer: str, out: str | None, round_: int | None, weights: str, from_: tuple[str, ...],
            tickets: str | None, tickets_alias: str | None, panels: bool, moves: int, time_limit: float, map_spec: str, dpi: int | None,
            size: str | None, ignore_illegal: bool) -> None:
    """Draw the board coloured by an analysis and write an image; prints its path.

    \b
    Layers: possible (default), history [--panels], reach --from STATION[,STATION...],
    coverage, cordon [--moves k], winrate RESULTS.csv, story (a finished game
    round by round: -o story.gif, or story.pdf a page a round).
    \b
    Examples:
      sy-tools heatmap examples/in-progress.json -o possible.png
      sy-tools heatmap examples/in-progress.json --layer history -o route.png
      sy-tools heatmap examples/in-progress.json --layer reach      # Mr. X until his next reveal
      sy-tools heatmap --layer reach --from 13 --piece-tickets taxi=10,bus=8,underground=4
      sy-tools heatmap --layer winrate results.csv                  # from sy-tools simulate
      sy-tools heatmap examples/capture.json --layer story --round 3 -o story.pdf  # rounds 1-3, a page each
    """

    from ..formats.files import refuse_overwrite
    from ..formats.values import check_pixels, figure_size, from_stations, parse_ticket_counts, picture_format

    if tickets is not None and tickets_alias is not None:
        raise InputError("give --piece-tickets once (--tickets is its old name)")
    tickets = tickets if tickets is not None else tickets_alias
    fig_size = figure_size(size)
    check_pixels(fig_size, dpi)
    out = out or ("story.gif" if layer == "story" else f"{layer}.png")
    picture_format(out, story=layer == "story")  # (an animation: the story layer alone writes one)
    from ..formats.map_write import source_files

    # never draw over an input (a record may be named game.svg; the map and a results file too)
    refuse_overwrite([out], ([game] if game else []) + [str(p) for p in source_files(map_spec)])
    starts = from_stations(from_)
    if starts and layer != "reach":
        raise InputError("--from belongs to the reach layer")
    if tickets is not None and not (layer == "reach" and game is None):
        raise InputError("--piece-tickets belongs to the reach layer without a GAME (with a GAME Mr. X's tickets come "
                         "from the record)")
    if panels and layer != "history":
        raise InputError("--panels belongs to the history layer")
    if round_ is not None and (layer == "winrate" or game is None):
        raise InputError("--round belongs to the layers drawn from a GAME record")
    from .. import plot

    if layer == "winrate":
        if game is None:
            raise InputError("the winrate layer needs a RESULTS file (.csv or .json with mrx_start, winner)")
        from ..formats.map_load import load_board

        board = load_board(map_spec)
        fig = plot.winrate_figure(board, plot.load_winrates(game, board), fig_size, dpi, source=game)
    elif layer == "reach" and game is None:
        if not starts:
            raise InputError("the reach layer needs --from STATION (or a GAME: Mr. X's reach)")
        limits = parse_ticket_counts(tickets, "--piece-tickets", TICKET_CHOICES) if tickets else None
        from ..formats.map_load import load_board

        board = load_board(map_spec)
        fig = plot.reach_figure(board, starts, limits, black=bool(limits and limits.get("black")), size=fig_size,
                                dpi=dpi)
    else:
        if game is None:
            raise InputError(f"the {layer} layer needs a GAME record")
        from ..formats.record_io import load_record, record_input_files

        rec = load_record(game)
        refuse_overwrite([out], record_input_files(game, rec))
        if not ignore_illegal:  # (the cordon layer's plan needs a legal record whatever the flag says)
            from ..analysis.referee import ILLEGAL_HINT, require_legal

            require_legal(rec.at_round(round_), ILLEGAL_HINT)
        if layer == "possible":
            fig = plot.possible_figure(rec, weights, round_, fig_size, dpi)
        elif layer == "history":
            fig = plot.history_figure(rec, weights, round_, fig_size, dpi, panels=panels)
        elif layer == "reach":
            fig = plot.mrx_reach_figure(rec, round_, starts or None, fig_size, dpi)
        elif layer == "coverage":
            fig = plot.coverage_figure(rec, round_, fig_size, dpi)
        elif layer == "story":
            say_written(plot.save_story(plot.story_figures(rec.at_round(round_), weights, fig_size, dpi), out, dpi))
            return
        else:
            fig = plot.cordon_figure(rec, moves, round_, time_limit, fig_size, dpi)
    say_written(plot.save(fig, out, dpi))
