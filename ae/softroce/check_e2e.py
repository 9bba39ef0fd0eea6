"""Checks what ae/softroce/e2e_guest.sh left: every step's exit status, the
merged results of each index (verified, both compute servers, the
device-memory fallback on record; SMART-BT's techniques on, its per-thread
doorbells given or their fallback on record) and the failure messages."""
import json
import pathlib
import sys


def log_tail(path: pathlib.Path, lines: int = 8) -> str:
    """The last lines of a collected log, indented, or why there are none."""
    if not path.exists():
        return "    (missing)"
    tail = path.read_text(errors="replace").splitlines()[-lines:]
    return "\n".join("    " + line for line in tail) or "    (empty)"


def nonzero_counters(path: pathlib.Path) -> str:
    """The counters of a collected `name value` list that are not zero, indented."""
    if not path.exists():
        return "    (missing)"
    lines = [line for line in path.read_text(errors="replace").splitlines()
             if line.split()[-1:] != ["0"]]
    return "\n".join("    " + line for line in lines) or "    (all zero)"


def main(out: pathlib.Path) -> int:
    problems = []

    def expect(condition, message):
        if not condition:
            problems.append(message)

    status = {}
    for line in (out / "status.txt").read_text().splitlines():
        name, _, value = line.rpartition(" exit=")
        status[name] = value.split()[0]
    expect(status.get("verbs_device_tests") == "0",
           "verbs device tests failed: see verbs_device_tests.log")
    for index in ("sherman", "smartbt", "fgplus"):
        steps = ("cluster",) if index == "fgplus" else ("cs0", "cs1", "serve", "merge")
        for step in steps:
            expect(status.get(f"{index} {step}") == "0",
                   f"{index} {step} exited {status.get(f'{index} {step}')}; the end of "
                   f"{index}-{step}.log:\n" + log_tail(out / f"{index}-{step}.log"))
        merged_file = out / f"{index}-merged.json"
        if not merged_file.exists():
            problems.append(f"{merged_file.name} is missing")
            continue
        merged = json.loads(merged_file.read_text())
        expect(merged["schema_version"] == 1, f"{index}: schema_version")
        expect(merged["config"]["index"]["preset"] == index, f"{index}: ran another index")
        expect(merged["backend"]["type"] == "verbs", f"{index}: backend.type")
        expect(len(merged["backend"]["compute_servers"]) == 2, f"{index}: not both compute servers")
        expect(merged["cluster"]["compute_servers"] == 2, f"{index}: cluster.compute_servers")
        fallbacks = merged["backend"]["fallbacks"]
        expect(any("no NIC device memory" in f for f in fallbacks),
               f"{index}: the device-memory fallback is not on record: {fallbacks}")
        # Soft-RoCE's failing CAS stores its word back: a WRITE release could
        # be lost to it, so locks are released by fetch-and-add, on record.
        expect(any("locks are released by fetch-and-add" in f for f in fallbacks),
               f"{index}: the fetch-and-add lock release is not on record: {fallbacks}")
        if index == "smartbt":
            substrate = merged["config"]["substrate"]
            expect(substrate["per_thread_doorbells"] and substrate["cas_backoff"]
                   and substrate["work_request_throttling"] == "adaptive",
                   f"smartbt: its substrate techniques were not on: {substrate}")
            expect(merged["config"]["index"]["speculative_lookup"],
                   "smartbt: speculative lookup was off")
            expect(any("substrate.per_thread_doorbells: device" in f for f in fallbacks)
                   or all(b.get("doorbells") == "per-thread (thread domains)"
                          for b in merged["backend"]["compute_servers"]),
                   f"smartbt: neither thread domains nor their fallback on record: {fallbacks}")
        verify = merged["verify"]
        expect(verify["enabled"] and verify["violations"] == 0,
               f"{index}: verify: {verify.get('violations')} violations {verify.get('examples')}")
        expect(verify["operations_checked"] > 1000,
               f"{index}: only {verify['operations_checked']} operations checked")
        # The processes measured the run on their own clocks, both barriers
        # included in the widening (one VM's clock: no drift to speak of).
        drift = verify.get("clock_drift_ns")
        expect(isinstance(drift, int) and verify["clock_widening_ns"] >= drift,
               f"{index}: verify: clock drift {drift}, widening {verify['clock_widening_ns']}")
        overall = merged["operations"]["overall"]
        expect(overall["count"] > 0 and merged["throughput_mops"] > 0, f"{index}: no operations")
        expect("insert" in merged["operations"]["by_op"], f"{index}: no inserts measured")

    killed = status.get("killed run", "")
    expect(killed not in ("", "0"), f"the run outlived its killed memory server (exit {killed})")
    killed_log = (out / "killed-run.log").read_text()
    expect("memory server 0" in killed_log,
           "killed memory server: the error does not name it:\n" + killed_log[-600:])
    refused = status.get("refused run", "")
    expect(refused not in ("", "0"), "connecting to nothing succeeded")
    refused_log = (out / "refused-run.log").read_text()
    expect("memory server 0" in refused_log and "7999" in refused_log,
           "nothing listening: the error does not name the memory server:\n" + refused_log)

    for problem in problems:
        print("FAIL:", problem)
    if problems:
        # Soft-RoCE reports its own trouble only in the guest's kernel log
        # (QP errors) and its counters (retransmissions, duplicate requests);
        # CI output is all a reader may have.
        print("the end of the guest's kernel log (dmesg.log):\n" + log_tail(out / "dmesg.log", 30))
        print("Soft-RoCE's counters over the whole script, those not zero (rxe-counters.txt):\n"
              + nonzero_counters(out / "rxe-counters.txt"))
    else:
        print("check_e2e: every check passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
