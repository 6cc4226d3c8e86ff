"""The flat 0.1 module names stay importable for one release (``sy_tools/_moved.py``): every
public name each old module defined still resolves, to the same object as at its new home, and
importing an old name warns once with a DeprecationWarning that names the new module."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

import sy_tools._moved as moved

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Each 0.1 module and the public names it defined (listed from the 0.1 sources).
OLD_NAMES = {
    "options": "AliasChoice F FORMAT_ALIASES MAP_FORMATS MAX_SECONDS PUZZLE_FLAGS PUZZLE_PARAMS SECONDS Seconds all_option format_option input_format_option map_option moves_option puzzle_options refuse_puzzle_flags round_option rules_option time_limit_option",
    "board": "Board Connection DETECTIVE_TICKETS DETECTIVE_TICKET_KINDS MRX_TICKET_KINDS Station StationMask StationSet Ticket Transport mask_of stations_of",
    "rules": "PRESETS RULE_CHOICES Rules load_rules preset rules_from_json ticket_counts",
    "movement": "MRX mrx_sources mrx_targets reserved_name",
    "position": "COUNTED_RULE_FIELDS DETECTIVE_KINDS Illegal MRX_MOVE_TICKETS Move Outcome OutcomeKind Playout PlayoutMove Position TICKET_KINDS Tickets counting_models detective_hops draw puzzle_detectives random_playout unmodelled_rule_fields when_text",
    "files": "MAX_READ_BYTES atomic_write_bytes atomic_write_many atomic_write_text read_bytes read_text refuse_overwrite same_file",
    "jsonutil": "DUPLICATE_KEYS HugeNumber MAX_DIGITS clip int_text is_text kind loads objects pop_duplicates scan show",
    "output": "dumps table",
    "mapio": "BUILTIN_MAPS COORD_LIMIT FORMATS OUTPUT_FORMATS PAIR_FILES RawConnection RawMap RawStation TRANSPORT_NAMES VALIDATED board_from_json board_from_raw builtin_path detect_format dropped_on_write load_board output_format parse_json_text read_bristol read_json read_map read_pair source_files to_bristol_text to_graphml_text to_json_text to_pair_texts write_map",
    "validate": "CHECKS MAX_STATION_ID ValidationReport check_raw cutoff_warning validate_map via_coverage",
    "record": "Detective DetectiveMove MESSAGE_LIMIT MrXMove PLACE_LIMIT Record RecordErrors Round SCHEMA TICKETS Vouched fast_record is_json_record load_record map_spec_for notation_places notation_problems parse_notation parse_record parse_record_json parse_record_text place_of record_json_text record_to_json to_notation vouched warm_fast_path",
    "tracker": "Capture EXACT_BITS InconsistentRecord Possible Share Step Trace WEIGHTS Weight final_of possible possible_mask smooth trace uniform_possible",
    "batch": "AUTO_JOBS Failure Job MIN_PER_WORKER analyse possible_many",
    "route": "LikelyRoute letter likely_route",
    "reach": "MrxReach TicketVector coverage mrx_reach nearest reach reach_from",
    "mapstats": "MapDiff MapInfo map_diff map_info",
    "moves": "LegalMoves Neighbours legal_moves neighbours record_position",
    "referee": "CheckResult INPUT_PROBLEMS Problem Status check unreadable_dict",
    "cordon": "CORDON_STATUSES CordonInputs CordonResult CordonStatus CordonTimeout DetectivePlan DetectiveState MAX_PLAN_OPTIONS MAX_TIME_LIMIT Option SCALE SOLVER_MEMORY_MB SealExit can_double check_plan_size check_time_limit cordon cordon_inputs count_options detective_options distances_to exits expand held_tickets is_sealed min_cordon plan_cordon puzzle reveal_takes robust seal_exits solve takeable tickets_after",
    "solve": "Refutation Reply SolveResult StrategyNode TABLE_SIZE describe puzzle puzzle_position record_position solve solve_record",
    "advise": "Advice DetectiveAdvice FAR ForcedHook ForcedResult MASS_STATIONS MAX_CANDIDATES MrXOption POLICY_TIME_LIMIT Weights advise_detectives advise_mrx advise_puzzle advise_record detective_policy distances mrx_policy puzzle_position solve_hook",
    "policies": "ADVISE_CANDIDATES CORDON_MAX_POSSIBLE DETECTIVE_POLICIES DetectiveObservation MRX_POLICIES MrXObservation Policy advise_detective advise_mrx cordon_detective describe distances greedy_detective greedy_mrx load_policy observed_position policy_source random_detective random_mrx run_policy",
    "simulate": "CONNECT_SECONDS DETECTIVE_NAMES DETECTIVE_TICKET_COLUMNS END_REASONS GameResult GameSpec MAX_JOBS MRX_TICKET_COLUMNS RECORD_NAME ROW_COLUMNS RowWriter SIMULATED_VARIANTS SimulationResult Summary check_spec deal detectives_view format_summary game_record game_rng input_files iter_games parse_starts play_game random_game record_map records_dir resolve_rules rules_json simulate summary_rows wilson win_rates_from_file write_record",
}


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_every_old_public_name_still_resolves(old):
    module = importlib.import_module(f"sy_tools.{old}")
    missing = [n for n in OLD_NAMES[old].split() if not hasattr(module, n) and (old, n) not in moved.REMOVED]
    assert not missing, f"sy_tools.{old} lost {missing}"


def test_an_old_name_is_the_object_at_its_new_home():
    import sy_tools.cordon as old_cordon
    import sy_tools.position as old_position

    from sy_tools.engine.position import Position
    from sy_tools.solvers.cordon import cordon

    assert old_position.Position is Position and old_cordon.cordon is cordon


def test_importing_an_old_module_warns_and_names_the_new_one(monkeypatch):
    monkeypatch.delitem(sys.modules, "sy_tools.route", raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        importlib.import_module("sy_tools.route")
    assert any(issubclass(w.category, DeprecationWarning) and "sy_tools.analysis.route" in str(w.message)
               for w in caught)


def test_a_removed_name_says_where_its_rule_lives():
    import sy_tools.cordon as old_cordon

    with pytest.raises(AttributeError, match="Position.can_double"):
        old_cordon.can_double  # noqa: B018


def test_unknown_names_and_modules_still_fail():
    import sy_tools.route as old_route

    with pytest.raises(AttributeError):
        old_route.no_such_name  # noqa: B018
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("sy_tools.no_such_module")
    assert set(moved.MOVED) == set(OLD_NAMES)
