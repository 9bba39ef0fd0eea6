"""Calibration-equivalent NIC values in the reproduction report (report.py).

An ablation whose ABLATION.json says "kind": "calibration-equivalent"
(ae/ablation.sh writes one for each pair plots/calibration/
fit_cx5_atomics.py finds) ran the index experiments with NIC values that
meet the calibration set as well as the profile's own: the calibration
cannot tell them apart. So a prediction's values over the profile's and
those sets are the range the calibration leaves open, and this section
shows it for every claim they all reran: the band, and at how many of the
sets ours is within ±25% of the paper's. A claim within ±25% at the
profile's values alone rests on a choice the calibration did not make."""

from __future__ import annotations

from dataclasses import dataclass

import claims as claimlib
from markdown_table import table
from report_ablation import Ablation, rerun
from report_seeds import ClaimAcross

EQUIVALENT = "calibration-equivalent"  # the ABLATION.json kind
HEADING = "## Calibration-equivalent NIC values"
HEADER = ["ID", "Paper", "Profile's values", "Band over all sets", "Within ±25% at",
          "Reproduced? (profile / all sets)"]


@dataclass(frozen=True)
class ClaimAcrossSets(ClaimAcross):
    """One claim at the profile's values (first) and at every equivalent set."""

    @property
    def judged(self) -> bool:
        return self.outcomes[0].strict is not None


def equivalent_sets(found: list[Ablation]) -> list[Ablation]:
    """The equivalent sets that could be read; unreadable(), those that
    could not, are named wherever the band is, since a band without them
    is over fewer sets than the fit found."""
    return [a for a in found if a.kind == EQUIVALENT and not a.error]


def unreadable(found: list[Ablation]) -> list[Ablation]:
    return [a for a in found if a.kind == EQUIVALENT and a.error]


def across_sets(outcomes: list[claimlib.Outcome], found: list[Ablation]
                ) -> list[ClaimAcrossSets]:
    """The claims computed at the profile's values and rerun, with a value,
    at every equivalent set."""
    sets = [dict((full.claim.id, off) for full, off in rerun(outcomes, a))
            for a in equivalent_sets(found)]
    if not sets:
        return []
    rows = []
    for full in outcomes:
        column = (full,) + tuple(by_id.get(full.claim.id) for by_id in sets)
        if all(o is not None and o.ours is not None for o in column):
            rows.append(ClaimAcrossSets(column))
    return rows


def band_text(row: ClaimAcrossSets) -> str:
    signed = row.claim.kind == claimlib.DIFFERENCE
    low, high = min(row.values), max(row.values)
    return (f"{claimlib.show(low, row.claim.unit, signed)} to "
            f"{claimlib.show(high, row.claim.unit, signed)}")


def verdict_counts(row: ClaimAcrossSets) -> str:
    """"5 yes, 1 partly": the verdicts at every set, those that occur."""
    verdicts = [o.verdict for o in row.outcomes]
    return ", ".join(f"{verdicts.count(v)} {v}" for v in claimlib.VERDICTS if v in verdicts)


def counts(rows: list[ClaimAcrossSets]) -> tuple[int, int, int]:
    """(judged by ±25%, within at every set, within at none)."""
    judged = [row for row in rows if row.judged]
    every = sum(row.within == len(row.outcomes) for row in judged)
    none = sum(row.within == 0 for row in judged)
    return len(judged), every, none


def summary(outcomes: list[claimlib.Outcome], found: list[Ablation]) -> str | None:
    """The report's first-lines summary, or None without equivalent sets."""
    rows = across_sets(outcomes, found)
    if not rows:
        return None
    judged, every, none = counts(rows)
    sets = len(rows[0].outcomes)
    missing = unreadable(found)
    unread = (f"; {len(missing)} more could not be read, so the band leaves them out"
              if missing else "")
    return (f"calibration-equivalent NIC values ({sets} sets, the profile's among them"
            f"{unread}): {len(rows)} claims computed at every set; of {judged} judged, "
            f"{every} within ±25% at every set, {none} at none, {judged - every - none} at some")


def equivalent_lines(outcomes: list[claimlib.Outcome], found: list[Ablation]) -> list[str]:
    sets, missing = equivalent_sets(found), unreadable(found)
    if not sets and not missing:
        return []
    lines = [HEADING, "",
             "NIC value sets that meet the calibration set as well as the profile's own "
             "(plots/calibration/fit_cx5_atomics.py ranks them; ae/ablation.sh runs each as "
             f"an ablation of kind `{EQUIVALENT}`): " + "; ".join(
                 f"`{a.label}` ({a.switch})" for a in sets) + ". The calibration cannot "
             "choose among them, so a prediction's band over them is what it leaves open; a "
             "claim within ±25% at the profile's values but not at every set rests on that "
             "choice.", ""]
    if missing:
        lines += ["**Not in the band** (could not be read; see Errors): " + "; ".join(
            f"`{a.label}`" for a in missing) + ".", ""]
    rows = across_sets(outcomes, found)
    if not rows:
        return lines + ["No claim was computed at every set.", ""]
    judged, every, none = counts(rows)
    lines += [f"{len(rows)} claims computed at every set: of {judged} judged by ±25%, "
              f"{every} within at every set, {none} at none and {judged - every - none} at "
              "some.", ""]
    lines += table(HEADER, [
        [row.claim.id, claimlib.paper_value(row.claim), claimlib.our_value(row.outcomes[0]),
         band_text(row),
         f"{row.within} of {len(row.outcomes)}" if row.judged else "–",
         f"{row.outcomes[0].verdict} / {verdict_counts(row)}"]
        for row in rows])
    return lines + [""]
