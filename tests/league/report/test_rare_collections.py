"""`league report` runs the garbage collector rarely while it works, and leaves its settings as they were."""

import gc

from league.report.build import rare_collections


def test_collections_are_rare_inside_and_the_thresholds_come_back_after():
    before = gc.get_threshold()
    with rare_collections():
        inside = gc.get_threshold()
    assert inside[0] >= 100 * before[0] and gc.get_threshold() == before


def test_the_thresholds_come_back_after_a_failure_too():
    before = gc.get_threshold()
    try:
        with rare_collections():
            raise ValueError("a report that failed")
    except ValueError:
        pass
    assert gc.get_threshold() == before
