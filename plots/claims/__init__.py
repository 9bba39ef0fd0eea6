"""The paper's quantitative claims as data, and how to check ours against them.

Each Claim names the figure and section it comes from, a short quote or
paraphrase, the paper's value and unit, the experiments it needs (by the
`name` of configs/experiments/*.json) and a function that computes OUR value
from loaded results (experiment name -> dmbench_results.Experiment).

Every number below was read from the text of the Sherman paper (SIGMOD'22,
§3.1.1, §3.2, §5.2-§5.7). Where the paper states a
relation without a number ("almost the same", "does not affect", "collapse"),
the claim says so in `paper_text` and is judged by a rule for that kind of
statement instead of against a made-up number. Numbers the paper gives that
are not checked here, and why, are in UNCHECKED.

    cd plots && /usr/bin/python3 -m claims      # lists the claims
"""

from __future__ import annotations

from typing import Mapping, Sequence

from . import paper_fig02_03, paper_fig10_11, paper_fig12_13, paper_fig14_15, paper_fig16
from . import paper_table1, smart_btree
from .calibration import CALIBRATION_BASICS, CALIBRATION_TARGETS, is_calibration
from .judging import *  # noqa: F401,F403  (the judging API, re-exported)
from .judging import Claim, Outcome, Results, evaluate_claims
from .unchecked import UNCHECKED

# Every claim of the prediction and calibration sets on the paper's figures,
# in the paper's order.
CLAIMS: list[Claim] = [*paper_table1.CLAIMS, *paper_fig02_03.CLAIMS, *paper_fig10_11.CLAIMS,
                       *paper_fig12_13.CLAIMS, *paper_fig14_15.CLAIMS, *paper_fig16.CLAIMS]

# SMART's (ASPLOS'24) claims on SMART-BT against Sherman+: a prediction set of
# another paper, evaluated and reported apart from CLAIMS.
SMART_CLAIMS: list[Claim] = list(smart_btree.CLAIMS)


def evaluate(results: Results, broken: Mapping[str, str] | None = None,
             claims: Sequence[Claim] | None = None) -> list[Outcome]:
    """Every claim (CLAIMS unless `claims` is given) against the results;
    `broken` maps experiments that are present but could not be loaded to
    their error, so that their claims are errors rather than "not run"."""
    return evaluate_claims(results, broken, CLAIMS if claims is None else claims)


__all__ = ["CALIBRATION_BASICS", "CALIBRATION_TARGETS", "CLAIMS", "PUBLIC", "SMART_CLAIMS",
           "UNCHECKED", "evaluate", "is_calibration", "of_paper"]
