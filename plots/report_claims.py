"""The claims' side of the reproduction report (report.py): the claims
checked on the results and on the results roots beside them, made once
(CheckedClaims), their tables' rows in REPORT.md, the summary lines that
open it, and the claims table printed on standard output."""

from __future__ import annotations

from dataclasses import dataclass

import claims as claimlib
from report_ablation import Ablation, ablation_summaries
from report_equivalents import summary as equivalents_summary
from report_seeds import SeedReplicate, seed_ranges, seed_summary


@dataclass
class CheckedClaims:
    """The claims checked on the results and on the roots beside them, with
    what the report and the printed lines both derive from them, made once."""
    outcomes: list[claimlib.Outcome]  # the Sherman paper's claims
    targets: list[claimlib.Outcome]  # the public calibration targets
    smart: list[claimlib.Outcome]  # SMART's claims on SMART-BT
    ablated: list[Ablation]
    replicated: list[SeedReplicate]

    def __post_init__(self):
        self.seed_ranges = seed_ranges(self.outcomes, self.replicated)
        self.seed_summary = seed_summary(self.outcomes, self.smart, self.replicated)
        self.equivalent_summary = equivalents_summary(self.outcomes, self.ablated)


CLAIMS_HEADER = ["ID", "Claim", "Figure", "Paper", "Ours", "Ours/paper (Δ for %)",
                 "Reproduced?", "Within ±25%?"]
CALIBRATION_HEADER = ["ID", "Target", "Source", "Reference value", "Ours",
                      "Ours/target (Δ for %)", "Within tolerance?", "Reproduced?"]


def claim_text(claim: claimlib.Claim) -> str:
    return claim.text + (f" — *{claim.note}*" if claim.note else "")


def claim_rows(outcomes: list[claimlib.Outcome]) -> list[list[str]]:
    rows = []
    for outcome in outcomes:
        claim = outcome.claim
        rows.append([claim.id, f"{claim_text(claim)} ({claim.section})", claim.figure,
                     claimlib.paper_value(claim), claimlib.our_value(outcome),
                     outcome.comparison or "–", outcome.verdict,
                     claimlib.strict_value(outcome)])
    return rows


def calibration_rows(outcomes: list[claimlib.Outcome]) -> list[list[str]]:
    rows = []
    for outcome in outcomes:
        claim = outcome.claim
        source = (f"Sherman paper, {claim.figure} ({claim.section})"
                  if claimlib.of_paper(claim) else claim.figure)
        rows.append([claim.id, claim_text(claim), source, claimlib.paper_value(claim),
                     claimlib.our_value(outcome), outcome.comparison or "–",
                     claimlib.strict_value(outcome), claimlib.verdict_value(outcome)])
    return rows


def split_sets(outcomes: list[claimlib.Outcome], targets: list[claimlib.Outcome]
               ) -> tuple[list[claimlib.Outcome], list[claimlib.Outcome]]:
    """(calibration set: its claims of the paper, then the public figures;
    prediction set)."""
    return ([o for o in outcomes if claimlib.is_calibration(o.claim)] + targets,
            [o for o in outcomes if not claimlib.is_calibration(o.claim)])


def apart(outcomes: list[claimlib.Outcome]) -> str:
    """What a strict count leaves out: " (3 n/a, 6 not run)", or ""."""
    counts = {"n/a": claimlib.strict_count(outcomes).unjudged}
    counts.update((v, c) for v, c in claimlib.tally(outcomes).items()
                  if v in (claimlib.NOT_RUN, claimlib.ERROR))
    shown = [f"{count} {what}" for what, count in counts.items() if count]
    return f" ({', '.join(shown)})" if shown else ""


def summary_lines(outcomes: list[claimlib.Outcome],
                  targets: list[claimlib.Outcome]) -> list[str]:
    """The verdicts and the strict count of every claim, then of the
    calibration set and of the prediction set apart."""
    calibration, prediction = split_sets(outcomes, targets)
    within = claimlib.strict_count(outcomes).within
    return [f"{len(outcomes)} claims of the paper checked: {claimlib.tally_text(outcomes)}; "
            f"{within} within ±25% of the paper{apart(outcomes)} ([rules](#claims)).",
            f"Calibration: {claimlib.strict_count(calibration).within} of {len(calibration)} "
            f"targets within tolerance{apart(calibration)}. "
            f"Prediction: {claimlib.strict_count(prediction).within} of {len(prediction)} "
            f"claims within ±25% of the paper{apart(prediction)}; "
            f"{claimlib.tally_text(prediction)}."]


def smart_summary(smart: list[claimlib.Outcome]) -> str:
    """The line on SMART's index claims, counted apart from the paper's."""
    return (f"SMART's claims on SMART-BT vs Sherman+ (its Fig. 12, another paper's prediction "
            f"set): {claimlib.strict_count(smart).within} of {len(smart)} within ±25%"
            f"{apart(smart)}; {claimlib.tally_text(smart)}.")


def print_claims(checked: CheckedClaims) -> None:
    """The claims by set, then the summary: the report's first lines, and a
    line per model ablation and for the seed replicates."""
    outcomes, targets, smart = checked.outcomes, checked.targets, checked.smart
    calibration, prediction = split_sets(outcomes, targets)
    header = ("claim", "paper", "ours", "ours/paper", "verdict", "within ±25%")
    def row(o: claimlib.Outcome, verdict: str) -> tuple:
        return (o.claim.id, claimlib.paper_value(o.claim), claimlib.our_value(o),
                o.comparison or "–", verdict, claimlib.strict_value(o))
    rows = [row(o, claimlib.verdict_value(o)) for o in calibration + prediction]
    # Another paper's claims: judged, so their verdict is shown.
    rows += [row(o, o.verdict) for o in smart]
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(5)]
    widths[2] = min(widths[2], 44)

    def line(row) -> str:
        return (f"{row[0]:{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:>{widths[2]}}  "
                f"{row[3]:>{widths[3]}}  {row[4]:{widths[4]}}  {row[5]}")
    print(line(header))
    predicted = len(calibration) + len(prediction)
    for title, block in (("calibration set", rows[:len(calibration)]),
                         ("prediction set", rows[len(calibration):predicted]),
                         ("SMART's claims", rows[predicted:])):
        print(f"-- {title}")
        for row in block:
            print(line(row))
    for text in summary_lines(outcomes, targets) + [smart_summary(smart)]:
        print(text.replace(" ([rules](#claims))", ""))
    for text in (ablation_summaries(outcomes, checked.ablated, checked.seed_ranges)
                 + checked.seed_summary):
        print(text)
    if checked.equivalent_summary:
        print(checked.equivalent_summary)
