"""Numbers in the paper's §3 and §5 that no claim checks, and why."""

UNCHECKED = (
    "Same-address CAS on on-chip memory is no calibration target: the ~8 Mops the project's "
    "design document carried has no primary measurement behind it. Fig. 16's on-chip step, "
    "measured on the paper's ConnectX-5, sets atomic_on_chip_ns instead; calibration-basics "
    "still measures the rate it implies.",
    "Figure 2: the only number printed in the extracted figure (0.494) cannot be tied to a "
    "series or axis reliably, so it is not used; the claims check the collapse the text "
    "states.",
    "Figure 3 (§3.2.3): \"when IO size reaches 256 bytes, NICs's hardware bandwidth restricts "
    "throughput\" gives no number beyond the 128 B bound checked; the calibration set checks "
    "the bandwidth against the public ~12 GB/s instead.",
    "Figure 14(a): \"FG+ experiences a few multiple times (e.g., 9) of read retries\" is an "
    "example, not a measurement.",
    "Table 1: all sixteen values were read from the extracted table (four columns, rows in "
    "the printed order); throughput and p99 are also stated in §3.1.1's prose. None was "
    "skipped.",
)
