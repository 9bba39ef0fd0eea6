#!/usr/bin/env bash
# Runs the index experiments again with one NIC-model mechanism switched off
# (or one open parameter moved across its plausible range), each into
# ROOT/ablation/LABEL/ with an ABLATION.json, so that plots/report.py on ROOT
# shows which claims each mechanism moves and how far. It also runs them at
# each set of NIC values the calibration set cannot tell from the profile's
# (configs/nic/calibration/cx5-100g-fig16.json, from
# plots/calibration/fit_cx5_atomics.py), whose band the report shows.
#
#   ae/ablation.sh [--quick | --full | --paper-scale] [--out ROOT] [--jobs N] [FIG...]
#
# ROOT defaults to results/ae, FIG to "table1 fig10 fig14" (the microbenchmark
# figures cannot take overrides). Give the mode ROOT was run in (default
# --full): an ablation may differ from ROOT's results only in what it
# switches, and the report refuses one that differs in another config field.
# At --paper-scale the open values' sensitivity is shown where the paper ran.
# Resumable like ae/run.sh. Set DMBENCH to a dmbench binary to skip set-up
# and build.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=ae/option-value.sh
source ae/option-value.sh

out=results/ae
jobs=$(nproc)
mode=
figures=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) option_value out "a directory" "$@"; shift ;;
    --jobs) option_value jobs "a number" "$@"; shift ;;
    --quick|--full|--paper-scale) option_mode "$1" ;;
    -h|--help) sed -n '2,/^set -euo pipefail/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 0 ;;
    -*) echo "ae/ablation.sh: unknown option '$1' (allowed: --quick, --full, --paper-scale," \
             "--out, --jobs)" >&2; exit 2 ;;
    *) figures+=("$1") ;;
  esac
  shift
done
[[ ${#figures[@]} -gt 0 ]] || figures=(table1 fig10 fig14)
mode=${mode:---full}

# label|mechanism|overrides (space-separated path=value)|description[|figures[|kind]]
# (figures: only these of the FIGs asked for, when the overrides do not apply
# to every experiment, e.g. a Zipfian setting and table1's uniform points)
ablations=(
  "no-processing-units|processing-unit head-of-line blocking|backend.nic_overrides.processing_units=0|no responder processing units: an atomic waiting for its bucket blocks only its own QP"
  "no-parking-slots|parking slots for waiting atomics|backend.nic_overrides.atomic_parking_slots=0|every atomic waiting for a busy bucket holds its processing unit"
  "parking-slots-64|parking slots: 64 (calibrated 80)|backend.nic_overrides.atomic_parking_slots=64|sensitivity: the low end of the range Fig. 16 leaves open"
  "parking-slots-128|parking slots: 128 (calibrated 80)|backend.nic_overrides.atomic_parking_slots=128|sensitivity: the high end of the range Fig. 16 leaves open"
  "processing-units-32|processing units: 32 (calibrated 24, the lower bound of the evidence)|backend.nic_overrides.processing_units=32|sensitivity: inside the range Fig. 16 leaves open, and the value it chose before an atomic held its unit from when it got there"
  "processing-units-64|processing units: 64 (calibrated 24)|backend.nic_overrides.processing_units=64|sensitivity: the high end of the range Fig. 16 leaves open"
  "on-chip-atomic-180|on-chip atomic: 180 ns (calibrated 150)|backend.nic_overrides.atomic_on_chip_ns=180|sensitivity: the value Fig. 16 chose with its locks drawn Zipfian themselves; on Fig. 16 as the authors ran it (keys hashed to locks, co-located machines), 180 ns meets six of its eight steps and 150 ns seven"
  "lock-spinners-21|local lock hand-off: 21 ns per spinner (calibrated 36)|backend.nic_overrides.cpu_lock_spinner_ns=21|sensitivity: the low end of the evidence (the next holder served after half the spinners, same socket)"
  "lock-spinners-41|local lock hand-off: 41 ns per spinner (calibrated 36)|backend.nic_overrides.cpu_lock_spinner_ns=41|sensitivity: the high end of the evidence (served after every spinner)"
  "random-arbitration|bucket arbitration: random instead of FIFO|backend.nic_overrides.atomic_bucket_arbitration=random|a freed bucket serves a random waiter"
  "cache-lookup-ours|index-cache lookup priced as our structure: 860 ns (the paper's skiplist 2840)|backend.nic_overrides.cpu_index_cache_lookup_ns=860|sensitivity: each cached lookup costs what our sorted-array cache costs at the paper's scale (the profile's value before it priced the paper's skiplist)"
  "no-cpu-costs|per-operation client CPU costs|backend.nic_overrides.cpu_crc_ns_per_byte=0 backend.nic_overrides.cpu_coroutine_switch_ns=0 backend.nic_overrides.cpu_key_generation_ns=0 backend.nic_overrides.cpu_index_cache_lookup_ns=0 backend.nic_overrides.cpu_lock_spinner_ns=0|no CPU charged for checksums, coroutine resumptions, key generation, index-cache lookups or lock spinners"
  "paper-key-population|key popularity of the paper's 1 billion keys|workload.zipf_population=1000000000|Zipfian ranks over 1 billion keys folded onto the scaled key space: the hottest key takes 4.2% of accesses instead of 5.5%|fig10 fig14"
)

# The NIC value sets Fig. 16 cannot tell from the profile's own, as
# plots/calibration/fit_cx5_atomics.py ranked them: the report shows the band
# each claim takes over them (plots/report_equivalents.py). Fields as above,
# then the kind.
fit=configs/nic/calibration/cx5-100g-fig16.json
generated=$(/usr/bin/python3 - "$fit" configs/nic/cx5-100g.json <<'PY'
import json, sys
fit_file, profile_file = sys.argv[1:]
try:
    fit = json.load(open(fit_file, encoding="utf-8"))
    profile = json.load(open(profile_file, encoding="utf-8"))["parameters"]
    keys = ("processing_units", "atomic_parking_slots")
    chosen = tuple(fit["chosen"][key] for key in keys)
    ours = tuple(profile[key]["value"] for key in keys)
    sets = [(tuple(e[key] for key in keys), e) for e in fit["equivalents"]]
except (OSError, ValueError, KeyError, TypeError) as error:
    sys.exit(f"ae/ablation.sh: {fit_file}: cannot read the calibration-equivalent sets "
             f"({error!r}); plots/calibration/fit_cx5_atomics.py writes it")
if chosen != ours:
    sys.exit(f"ae/ablation.sh: {profile_file} has processing_units, atomic_parking_slots = "
             f"{ours}, but {fit_file} chose {chosen}: rerun plots/calibration/"
             "fit_cx5_atomics.py, or set the profile to its choice")
best = fit["chosen"]
for (units, slots), entry in sets:
    if (units, slots) == chosen:
        continue
    print(f"equivalent-u{units}-s{slots}|calibration-equivalent: {units} processing units, "
          f"{slots} parking slots (calibrated {chosen[0]}, {chosen[1]})|"
          f"backend.nic_overrides.processing_units={units} "
          f"backend.nic_overrides.atomic_parking_slots={slots}|"
          f"meets Fig. 16 as the profile's values do: {entry['steps_within_every_seed']} of "
          f"{len(entry['steps'])} steps within ±25% at every seed (mean absolute log error "
          f"{entry['error']:.3f}; the profile's {best['error']:.3f}); "
          f"{fit['command']}||calibration-equivalent")
PY
) || exit 2
[[ -z "$generated" ]] || mapfile -t -O "${#ablations[@]}" ablations <<<"$generated"

for entry in "${ablations[@]}"; do
  IFS='|' read -r label mechanism overrides description only kind <<<"$entry"
  root=$out/ablation/$label
  selected=("${figures[@]}")
  if [[ -n "$only" ]]; then
    selected=()
    for figure in "${figures[@]}"; do
      [[ " $only " == *" $figure "* ]] && selected+=("$figure")
    done
    if [[ ${#selected[@]} -eq 0 ]]; then
      echo "== ablation $label: skipped (it applies to $only only)" >&2
      continue
    fi
  fi
  sets=()
  for assignment in $overrides; do sets+=(--set "$assignment"); done
  echo "== ablation $label: $overrides" >&2
  ae/run.sh "${selected[@]}" "$mode" --jobs "$jobs" --out "$root" "${sets[@]}"
  /usr/bin/python3 - "$root/ABLATION.json" "$label" "$mechanism" "$overrides" "$description" \
    "$kind" <<'PY'
import json, sys
path, label, mechanism, switch, description, kind = sys.argv[1:]
document = {"label": label, "mechanism": mechanism, "switch": switch,
            "description": description}
if kind:
    document["kind"] = kind
with open(path, "w") as f:
    json.dump(document, f, indent=2)
    f.write("\n")
PY
done
